package dev.redlock.chaos.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One accepted client and its connection to the upstream, with an upstream and a downstream {@link Link}. Both
 * sockets and every stage live on one event loop; other threads only post tasks ({@link #close()},
 * {@link #toxicsChanged()}), so nothing here blocks or locks.
 *
 * <p>The end of stream, or an error, on one side runs through that direction's toxics and then closes the other
 * side, which ends the opposite direction in turn (no half-open connections, as in the real server).
 *
 * <p>Harness-only ({@link #switchUpstream}): the client socket can be kept while the upstream is replaced, as a
 * proxy in front of a failed-over master does (the client's connection, and what it learned at its handshake, live
 * on; the server behind it is another process). Bytes in flight at that moment are dropped.
 */
final class ProxyConnection {

    private static final Logger log = LoggerFactory.getLogger(ProxyConnection.class);
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    private final Listener listener;
    private final EventLoop loop;
    private final Channel client;
    private Channel server;
    private Link upstream;
    private Link downstream;
    private boolean dialing;
    private boolean clientOpen = true;
    private boolean serverOpen;
    private boolean closed;
    private boolean finished;

    ProxyConnection(Listener listener, EventLoop loop, Channel client) {
        this.listener = listener;
        this.loop = loop;
        this.client = client;
    }

    EventLoop loop() {
        return loop;
    }

    /** True once the connection is being torn down; stages stop acting then. */
    boolean closed() {
        return closed;
    }

    /** The client socket is registered: dial the upstream; reading waits until the dial succeeds. */
    void dial() {
        if (closed) {
            client.close();
            return;
        }
        connect(null);
    }

    /** Dials the listener's current upstream; {@code done} (if any) completes when the dial has ended. */
    private void connect(Promise<Boolean> done) {
        dialing = true;
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .handler(new RelayHandler(this, false));
        bootstrap.connect(listener.upstream().unresolved()).addListener((ChannelFuture f) -> {
            dialing = false;
            if (f.isSuccess()) {
                start(f.channel());
            } else {
                log.debug("proxy {}: dial {} failed: {}", listener.proxyName(), listener.upstream(), f.cause());
                closeNow();
                finishIfDone(); // in case the client had already gone while dialing
            }
            if (done != null) {
                done.trySuccess(server != null && !closed);
            }
        });
    }

    /**
     * Harness-only: keeps the client socket and replaces the upstream socket with a new one to the listener's
     * (new) upstream. Data in flight either way is dropped; the client reads nothing until the new upstream is
     * connected. A connection still dialing, or already closing, is closed instead. Safe from any thread; the
     * future completes once the new upstream is connected (true) or the connection closed (false).
     */
    Future<Boolean> switchUpstream() {
        Promise<Boolean> done = loop.newPromise();
        Runnable task = () -> {
            if (closed || dialing || server == null) {
                closeNow();
                done.trySuccess(false);
                return;
            }
            Channel old = server;
            client.config().setAutoRead(false);
            upstream.dispose();
            downstream.dispose();
            upstream = null;
            downstream = null;
            server = null;
            serverOpen = false;
            old.close(); // its end is no longer this connection's: onInactive ignores it
            connect(done);
        };
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            return ImmediateEventExecutor.INSTANCE.newSucceededFuture(false); // shutting down: every socket closes
        }
        return done;
    }

    private void start(Channel serverChannel) {
        server = serverChannel;
        serverOpen = true;
        if (closed || !clientOpen) {
            closeNow();
            return;
        }
        upstream = new Link(this, Direction.UPSTREAM, client, server);
        downstream = new Link(this, Direction.DOWNSTREAM, server, client);
        applyToxics();
        client.config().setAutoRead(true);
        server.config().setAutoRead(true);
    }

    void onRead(boolean fromClient, Channel from, ByteBuf data) {
        Link link = fromClient ? upstream : downstream;
        if (link == null || closed || !fromClient && from != server) {
            data.release();
        } else {
            link.read(data);
        }
    }

    void onInactive(boolean clientSide, Channel channel) {
        if (!clientSide && channel != server) {
            return; // an upstream this connection was switched away from
        }
        if (clientSide) {
            clientOpen = false;
            if (upstream != null && !closed) {
                upstream.sourceEnded();
            }
        } else {
            serverOpen = false;
            if (downstream != null && !closed) {
                downstream.sourceEnded();
            }
        }
        finishIfDone();
    }

    /** Closes both sockets; safe from any thread, returns at once with the future of the close. */
    Future<?> close() {
        return post(this::closeNow);
    }

    /** Re-applies the proxy's current toxics; safe from any thread, returns at once with the future of that. */
    Future<?> toxicsChanged() {
        return post(this::applyToxics);
    }

    /** Closes both sockets with SO_LINGER 0, so both peers see a TCP reset. Loop thread only. */
    void reset() {
        for (Channel channel : new Channel[] {client, server}) {
            if (channel != null && channel.isOpen()) {
                channel.config().setOption(ChannelOption.SO_LINGER, 0);
            }
        }
        closeNow();
    }

    private void closeNow() {
        closed = true;
        if (client.isRegistered()) {
            client.close();
        } // else registration is still queued on this loop: dial() sees `closed` and closes the client then
        if (server != null) {
            server.close();
        }
    }

    private void applyToxics() {
        if (closed || upstream == null) {
            return;
        }
        ToxicSet toxics = listener.toxics();
        upstream.apply(toxics.of(Direction.UPSTREAM));
        downstream.apply(toxics.of(Direction.DOWNSTREAM));
    }

    private void finishIfDone() {
        if (finished || clientOpen || serverOpen || dialing) {
            return;
        }
        finished = true;
        closed = true;
        if (upstream != null) {
            upstream.dispose();
            downstream.dispose();
        }
        listener.forget(this);
    }

    private Future<?> post(Runnable task) {
        try {
            return loop.submit(task);
        } catch (RejectedExecutionException e) {
            // the server is shutting down; its event loops close every socket
            return ImmediateEventExecutor.INSTANCE.newSucceededFuture(null);
        }
    }
}
