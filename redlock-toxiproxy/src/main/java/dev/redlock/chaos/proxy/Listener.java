package dev.redlock.chaos.proxy;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening socket of an enabled proxy and the connections it accepted.
 *
 * <p>The socket is a plain blocking {@link ServerSocketChannel} with one accept thread per listener (not per
 * connection): binding is synchronous, so a bind error is reported by the request that caused it, and
 * {@link #close()} frees the port before it returns (SO_REUSEADDR is set), which a selector-registered socket
 * does not guarantee. Accepted sockets are handed to the data-plane event loops.
 */
final class Listener {

    private static final Logger log = LoggerFactory.getLogger(Listener.class);
    private static final int BACKLOG = 128;
    private static final long ACCEPTOR_JOIN_MILLIS = 2_000;

    private final ManagedProxy proxy;
    private volatile HostPort upstream;
    private final EventLoopGroup workers;
    private final ServerSocketChannel socket;
    private final InetSocketAddress bound;
    private final Set<ProxyConnection> connections = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    private Listener(ManagedProxy proxy, HostPort upstream, EventLoopGroup workers, ServerSocketChannel socket)
            throws IOException {
        this.proxy = proxy;
        this.upstream = upstream;
        this.workers = workers;
        this.socket = socket;
        this.bound = (InetSocketAddress) socket.getLocalAddress();
        this.acceptor = new Thread(this::acceptLoop, "toxiproxy-accept-" + proxy.name() + "-" + bound.getPort());
        this.acceptor.setDaemon(true);
    }

    /** Binds {@code address} and starts accepting; connections dial {@code upstream}. */
    static Listener open(ManagedProxy proxy, InetSocketAddress address, HostPort upstream, EventLoopGroup workers)
            throws IOException {
        ServerSocketChannel socket = ServerSocketChannel.open();
        try {
            socket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            socket.bind(address, BACKLOG);
            Listener listener = new Listener(proxy, upstream, workers, socket);
            listener.acceptor.start();
            return listener;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    InetSocketAddress boundAddress() {
        return bound;
    }

    HostPort upstream() {
        return upstream;
    }

    String proxyName() {
        return proxy.name();
    }

    ToxicSet toxics() {
        return proxy.toxics();
    }

    /** Tells every open connection to re-apply the toxics; returns at once. */
    void toxicsChanged(Settlement settlement) {
        connections.forEach(c -> settlement.add(c.toxicsChanged()));
    }

    /**
     * Harness-only: new connections dial {@code target}, and every open one keeps its client socket while its
     * upstream is replaced ({@link ProxyConnection#switchUpstream}); the switches are added to {@code settlement}.
     */
    void switchUpstream(HostPort target, Settlement settlement) {
        upstream = target;
        connections.forEach(c -> settlement.add(c.switchUpstream()));
    }

    void forget(ProxyConnection connection) {
        connections.remove(connection);
    }

    /**
     * Stops listening (the port is free when this returns) and closes every connection (asynchronously, on
     * their event loops; the closes are added to {@code settlement}). Idempotent.
     */
    void close(Settlement settlement) {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            log.debug("proxy {}: closing listener: {}", proxy.name(), e.toString());
        }
        if (Thread.currentThread() != acceptor) {
            try {
                acceptor.join(ACCEPTOR_JOIN_MILLIS); // returns at once: close() interrupted its accept
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        connections.forEach(c -> settlement.add(c.close()));
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel accepted;
            try {
                accepted = socket.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                log.warn("proxy {}: accept failed: {}", proxy.name(), e.toString());
                pause();
                continue;
            }
            hand(accepted);
        }
    }

    private void hand(SocketChannel accepted) {
        try {
            NioSocketChannel client = new NioSocketChannel(accepted);
            client.config().setAutoRead(false);
            client.config().setTcpNoDelay(true);
            EventLoop loop = workers.next();
            ProxyConnection connection = new ProxyConnection(this, loop, client);
            client.pipeline().addLast(new RelayHandler(connection, true));
            connections.add(connection);
            loop.register(client).addListener(f -> {
                if (!f.isSuccess()) {
                    connections.remove(connection);
                    client.unsafe().closeForcibly();
                }
            });
            if (closed) {
                connection.close(); // raced with close(): it may not have seen this connection
            }
        } catch (RuntimeException e) {
            log.warn("proxy {}: cannot serve accepted socket: {}", proxy.name(), e.toString());
            try {
                accepted.close();
            } catch (IOException ignored) {
                // nothing more to do
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
