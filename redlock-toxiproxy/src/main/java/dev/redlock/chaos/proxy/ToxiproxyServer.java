package dev.redlock.chaos.proxy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Toxiproxy-compatible server running inside this JVM: the HTTP control API of Toxiproxy 2.x (so
 * {@code eu.rekawek.toxiproxy.ToxiproxyClient} works against it unchanged) and TCP proxies with the standard
 * toxics (latency, bandwidth, slow_close, timeout, reset_peer, slicer, limit_data), built on Netty.
 *
 * <p>Guaranteed:
 * <ul>
 *   <li>The control API always answers: its thread never waits for proxied traffic, and toxic changes reach open
 *       connections asynchronously (but at once) instead of under a lock.</li>
 *   <li>Deleting or disabling a proxy frees its port before the response is sent.</li>
 *   <li>Toxics keep the order of bytes in their direction; none of them reorders data.</li>
 *   <li>{@code timeout} is a black hole, not a delay: data in its direction is dropped, and the connection closes
 *       after {@code timeout} ms without data (never, if 0), or when the toxic is removed.</li>
 * </ul>
 * Not guaranteed: timing is best effort (event-loop timers, millisecond resolution; a loaded machine adds
 * delay, never removes it); slicer pieces sent without delay may be merged by TCP; there is no TLS, no
 * authentication and no persistence of proxies across restarts.
 *
 * <p>Thread-safe. {@link #close()} is idempotent; the instance cannot be restarted.
 */
public final class ToxiproxyServer implements AutoCloseable {

    private static final long SHUTDOWN_SECONDS = 5;

    private final EventLoopGroup control;
    private final EventLoopGroup workers;
    private final ControlApi api;
    private final Channel httpChannel;
    private final int port;
    private final String url;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ToxiproxyServer(EventLoopGroup control, EventLoopGroup workers, ControlApi api, Channel httpChannel) {
        this.control = control;
        this.workers = workers;
        this.api = api;
        this.httpChannel = httpChannel;
        InetSocketAddress bound = (InetSocketAddress) httpChannel.localAddress();
        this.port = bound.getPort();
        InetAddress ip = bound.getAddress();
        boolean loopbackOrAny = ip.isAnyLocalAddress() || ip.isLoopbackAddress() && ip.getAddress().length == 4;
        this.url = "http://" + (loopbackOrAny ? "127.0.0.1:" + port : HostPort.format(bound));
    }

    /**
     * Starts the control API on {@code host:port} ({@code port} 0 picks a free port). Proxies are created through
     * the API.
     *
     * @throws UncheckedIOException if the host does not resolve or the port cannot be bound
     */
    public static ToxiproxyServer start(String host, int port) {
        EventLoopGroup control = new MultiThreadIoEventLoopGroup(1,
                new DefaultThreadFactory("toxiproxy-control", true), NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(Math.max(2, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("toxiproxy-data", true), NioIoHandler.newFactory());
        ControlApi api = new ControlApi(workers);
        try {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(host), port);
            ChannelFuture bind = new ServerBootstrap()
                    .group(control)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpServerExpectContinueHandler(),
                                    new HttpObjectAggregator(1 << 20), new ControlHttpHandler(api));
                        }
                    })
                    .bind(address)
                    .awaitUninterruptibly();
            if (!bind.isSuccess()) {
                throw new UncheckedIOException(new IOException(
                        "cannot listen on " + host + ":" + port + ": " + bind.cause().getMessage(), bind.cause()));
            }
            return new ToxiproxyServer(control, workers, api, bind.channel());
        } catch (UnknownHostException e) {
            shutdown(control, workers);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            shutdown(control, workers);
            throw e;
        }
    }

    /** The port of the control API. */
    public int port() {
        return port;
    }

    /** The base URL of the control API, e.g. {@code http://127.0.0.1:8474}. */
    public String url() {
        return url;
    }

    /**
     * Harness-only, not part of Toxiproxy's API: proxy {@code proxy}'s upstream becomes {@code upstream}
     * ({@code host:port}) and its open connections are moved there with their client sockets kept (bytes in flight
     * are dropped), as a proxy in front of a failed-over master that keeps client connections does. Returns once
     * every open connection has its new upstream (or was closed because it could not get one), with the number of
     * connections moved.
     *
     * @throws IllegalArgumentException for an unknown proxy or a bad address
     * @throws IllegalStateException    when the connections did not move within a few seconds
     */
    public int switchUpstream(String proxy, String upstream) {
        Settlement work;
        try {
            work = httpChannel.eventLoop().submit(() -> api.switchUpstream(proxy, upstream))
                    .get(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalArgumentException("cannot switch proxy " + proxy + " to " + upstream + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while switching proxy " + proxy, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the control thread did not switch proxy " + proxy + " in time", e);
        }
        if (!work.await(TimeUnit.SECONDS.toMillis(SHUTDOWN_SECONDS))) {
            throw new IllegalStateException("proxy " + proxy + ": open connections did not reach " + upstream
                    + " within " + SHUTDOWN_SECONDS + " s");
        }
        return work.count(Boolean.TRUE);
    }

    /**
     * Stops the control API and every proxy: listeners are closed (ports freed), connections closed, threads
     * stopped. Idempotent; waits at most a few seconds.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        EventLoop loop = httpChannel.eventLoop();
        if (loop.inEventLoop()) {
            api.shutdown();
        } else {
            loop.submit(api::shutdown).awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        }
        httpChannel.close().awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        shutdown(control, workers);
    }

    private static void shutdown(EventLoopGroup control, EventLoopGroup workers) {
        Future<?> a = workers.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        Future<?> b = control.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        a.awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        b.awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "ToxiproxyServer[" + url + "]";
    }
}
