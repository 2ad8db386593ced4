package dev.redlock.chaos.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.nio.NioSocketChannel;
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
                closeNow(); // the client's close event finishes the connection
            }
        });
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

    void onRead(boolean fromClient, ByteBuf data) {
        Link link = fromClient ? upstream : downstream;
        if (link == null || closed) {
            data.release();
        } else {
            link.read(data);
        }
    }

    void onInactive(boolean clientSide) {
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

    /** Closes both sockets; safe from any thread, returns at once. */
    void close() {
        post(this::closeNow);
    }

    /** Re-applies the proxy's current toxics; safe from any thread, returns at once. */
    void toxicsChanged() {
        post(this::applyToxics);
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
        client.close();
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

    private void post(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            // the server is shutting down; its event loops close every socket
        }
    }
}
