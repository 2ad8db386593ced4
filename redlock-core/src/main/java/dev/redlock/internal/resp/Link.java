package dev.redlock.internal.resp;

import dev.redlock.internal.Failures;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * One long-lived connection of a {@link RespClient} (the command connection or the subscriber connection) and its
 * life: connect, TLS, handshake (AUTH, SELECT, {@code INFO server}, then the {@link ConnectionCheck}), serve, and
 * on any failure or close reconnect with exponential backoff (first retry at once after a healthy connection was
 * lost, then 50 ms doubling up to 1 s, with jitter). A command sent while the link is not ready waits for the
 * attempt in progress, or starts one at once (reconnect on use, ahead of the backoff), and fails with the attempt's
 * reason if it fails: a node that is down costs its vote, and a wait of at most one connect timeout. State changes
 * run on the event loop.
 */
final class Link {
    private static final long FIRST_BACKOFF_MS = 50;
    private static final long MAX_BACKOFF_MS = 1000;

    private final RespEndpoint endpoint;
    private final EventLoop loop;
    private final SslContext ssl;
    private final ConnectionCheck check;
    private final BiConsumer<String, String> pushes;
    private final Runnable onReady;
    private volatile RespChannel ready;
    private volatile Throwable lastFailure;
    private volatile boolean closed;
    private RespChannel current;                                    // loop only
    private boolean started;                                        // loop only
    private int failures;                                           // loop only
    private ScheduledFuture<?> reconnect;                           // loop only
    private final ArrayDeque<RespCommand> waiting = new ArrayDeque<>();   // loop only
    private final List<CompletableFuture<Void>> settleWaiters = new ArrayList<>();   // loop only

    Link(RespEndpoint endpoint, EventLoop loop, SslContext ssl, ConnectionCheck check,
         BiConsumer<String, String> pushes, Runnable onReady) {
        this.endpoint = endpoint;
        this.loop = loop;
        this.ssl = ssl;
        this.check = check;
        this.pushes = pushes;
        this.onReady = onReady;
        this.lastFailure = new RedisConnectionException(endpoint.name() + ": not connected yet");
    }

    /** The connection that passed its handshake, or null. */
    RespChannel ready() {
        return ready;
    }

    /** Why the link is not ready (the last failure). */
    Throwable lastFailure() {
        return lastFailure;
    }

    /**
     * Starts connecting if not started yet; completes when the link is ready or its current attempt failed
     * (exceptionally, with the reason).
     */
    CompletableFuture<Void> start() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (closed) {
            f.completeExceptionally(new RedisConnectionException(endpoint.name() + ": client closed"));
            return f;
        }
        loop.execute(() -> {
            if (ready != null) {
                f.complete(null);
                return;
            }
            settleWaiters.add(f);
            if (!started) {
                started = true;
                connect();
            }
        });
        return f;
    }

    /** Sends {@code c} once the link is ready: now, after the attempt in progress, or after one started now. */
    void sendWhenReady(RespCommand c) {
        if (loop.inEventLoop()) {
            enqueue(c);
            return;
        }
        try {
            loop.execute(() -> enqueue(c));
        } catch (RuntimeException e) {
            c.completeExceptionally(new RedisConnectionException(endpoint.name() + ": client closed"));
        }
    }

    private void enqueue(RespCommand c) {
        if (closed) {
            c.completeExceptionally(lastFailure);
            return;
        }
        RespChannel r = ready;
        if (r != null) {
            r.send(c);
            return;
        }
        waiting.add(c);
        if (current == null) {
            if (reconnect != null) reconnect.cancel(false);
            started = true;
            connect();
        }
    }

    private void connect() {
        reconnect = null;
        if (closed || current != null) return;
        RespChannel handler = new RespChannel(endpoint, pushes);
        current = handler;
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, endpoint.connectTimeout().toMillis());
        Bootstrap b = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                // the pooled allocator of both Netty lines: 4.2's default (adaptive) allocates a ByteBuffer view per
                // socket read and write, about 1.6 KB per acquire+release
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.max(1, timeoutMs))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (ssl != null) ch.pipeline().addLast(sslHandler(ch));
                        ch.pipeline().addLast(new RespDecoder(handler), handler);
                    }
                });
        ChannelFuture connected;
        try {
            connected = b.connect(endpoint.host(), endpoint.port());
        } catch (RuntimeException e) {
            attemptEnded(handler, new RedisConnectionException(endpoint.name() + ": cannot connect: "
                    + RespChannel.describe(e), e));
            return;
        }
        // TCP connect: connectTimeout; the handshake's commands: the reply window (RespChannel's stall check);
        // this deadline is the backstop for anything else (a check that never completes)
        long deadlineMs = timeoutMs + endpoint.replyWindow().toMillis();
        ScheduledFuture<?> deadline = loop.schedule(() -> {
            if (ready != handler && current == handler) {
                handler.closeWith(new RedisConnectionException(endpoint.name() + ": not connected and handshaken within "
                        + deadlineMs + " ms"));
            }
        }, deadlineMs, TimeUnit.MILLISECONDS);
        connected.channel().closeFuture().addListener(x -> {
            deadline.cancel(false);
            Throwable cause = handler.closeCause();
            if (cause == null && !connected.isSuccess() && connected.cause() != null) {
                cause = new RedisConnectionException(endpoint.name() + ": cannot connect: "
                        + RespChannel.describe(connected.cause()), connected.cause());
            }
            attemptEnded(handler, cause);
        });
        connected.addListener(x -> {
            if (!x.isSuccess()) {
                handler.closeWith(new RedisConnectionException(endpoint.name() + ": cannot connect: "
                        + RespChannel.describe(x.cause()), x.cause()));
                connected.channel().close();
                return;
            }
            handshake(handler);
        });
    }

    private SslHandler sslHandler(Channel ch) {
        SslHandler h = ssl.newHandler(ch.alloc(), endpoint.host(), endpoint.port());
        SSLEngine engine = h.engine();
        SSLParameters p = engine.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(p);
        h.setHandshakeTimeoutMillis(endpoint.connectTimeout().toMillis() + endpoint.replyWindow().toMillis());
        return h;
    }

    /** AUTH, SELECT and INFO server pipelined; then the check; then ready. */
    private void handshake(RespChannel h) {
        List<CompletableFuture<Object>> steps = new ArrayList<>(3);
        if (endpoint.password() != null) {
            steps.add(endpoint.username() != null ? h.command("AUTH", endpoint.username(), endpoint.password())
                    : h.command("AUTH", endpoint.password()));
        }
        if (endpoint.database() != 0) steps.add(h.command("SELECT", Integer.toString(endpoint.database())));
        CompletableFuture<Object> info = h.command("INFO", "server");
        steps.add(info);
        CompletableFuture.allOf(steps.toArray(CompletableFuture[]::new)).whenComplete((x, e) -> {
            if (e != null) {
                handshakeFailed(h, firstFailure(steps));
                return;
            }
            String text = String.valueOf(info.join());
            h.handshakeResult(infoField(text, "run_id"), infoField(text, "redis_version"));
            CompletableFuture<?> checked;
            try {
                checked = check.check(h).toCompletableFuture();
            } catch (RuntimeException ex) {
                checked = CompletableFuture.failedFuture(ex);
            }
            checked.whenComplete((y, err) -> {
                if (err != null) handshakeFailed(h, "connection check failed: " + RespChannel.describe(Failures.unwrap(err)));
                else loop.execute(() -> becameReady(h));
            });
        });
    }

    private String firstFailure(List<CompletableFuture<Object>> steps) {
        for (CompletableFuture<Object> s : steps) {
            if (s.isCompletedExceptionally()) {
                try {
                    s.join();
                } catch (RuntimeException e) {
                    Throwable t = Failures.unwrap(e);
                    if (t instanceof RedisConnectionException) return RespChannel.describe(t);
                    return "handshake failed: " + RespChannel.describe(t);
                }
            }
        }
        return "handshake failed";
    }

    private void handshakeFailed(RespChannel h, String message) {
        String text = message.startsWith(endpoint.name()) ? message : endpoint.name() + ": " + message;
        h.closeWith(new RedisConnectionException(text));
    }

    private void becameReady(RespChannel h) {
        if (current != h || !h.isOpen()) return;
        if (closed) {
            h.closeWith(new RedisConnectionException(endpoint.name() + ": client closed"));
            return;
        }
        failures = 0;
        ready = h;
        for (RespCommand c; (c = waiting.poll()) != null; ) h.send(c);
        for (CompletableFuture<Void> w : drainWaiters()) w.complete(null);
        if (onReady != null) onReady.run();
    }

    /** The attempt or the connection ended (always on the loop, once per connection). */
    private void attemptEnded(RespChannel h, Throwable cause) {
        if (current != h) return;
        current = null;
        boolean wasReady = ready == h;
        if (wasReady) ready = null;
        Throwable reason = cause != null ? cause
                : new RedisConnectionException(endpoint.name() + ": connection closed by the server");
        lastFailure = reason;
        RedisConnectionException failed = reason instanceof RedisConnectionException e ? e
                : new RedisConnectionException(endpoint.name() + ": " + RespChannel.describe(reason), reason);
        for (RespCommand c; (c = waiting.poll()) != null; ) c.completeExceptionally(failed);
        for (CompletableFuture<Void> w : drainWaiters()) w.completeExceptionally(reason);
        if (closed) return;
        long delay;
        if (wasReady) {
            delay = 0;
        } else {
            long base = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(failures, 10));
            failures++;
            delay = base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
        }
        try {
            reconnect = loop.schedule(this::connect, delay, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            // the event loop is shutting down: nothing to reconnect for
        }
    }

    private List<CompletableFuture<Void>> drainWaiters() {
        List<CompletableFuture<Void>> all = new ArrayList<>(settleWaiters);
        settleWaiters.clear();
        return all;
    }

    /**
     * Closes the link for good: later commands fail at once; the connection closes once the replies of the commands
     * already written are in (at most {@code maxWaitNanos}). Completes when it is closed.
     */
    CompletableFuture<Void> close(long maxWaitNanos) {
        closed = true;
        RespChannel r = ready;
        ready = null;
        lastFailure = new RedisConnectionException(endpoint.name() + ": client closed");
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            loop.execute(() -> {
                if (reconnect != null) reconnect.cancel(false);
                for (RespCommand c; (c = waiting.poll()) != null; ) c.completeExceptionally(lastFailure);
                if (current == null) done.complete(null);
                else current.closeWhenIdle(maxWaitNanos).whenComplete((x, e) -> done.complete(null));
            });
        } catch (RuntimeException e) {
            if (r != null) r.closeWith(lastFailure);
            done.complete(null);
        }
        return done;
    }

    static String infoField(String info, String field) {
        String key = field + ":";
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(key)) return line.substring(key.length()).trim();
        }
        return null;
    }
}
