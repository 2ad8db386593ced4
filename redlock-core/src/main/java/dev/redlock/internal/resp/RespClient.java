package dev.redlock.internal.resp;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A RESP2 client for one Redis node: one long-lived, multiplexed, auto-pipelined command connection (replies
 * matched in order, no pool, no timer per command), and a dedicated subscriber connection opened on the first
 * {@link #subscribe}. Both reconnect on their own with backoff and run the handshake (AUTH, SELECT, {@code INFO
 * server}, the {@link ConnectionCheck}) on every connect; a command sent while the command connection is not ready
 * waits for the attempt in progress (or one started at once) and fails with a {@link RedisConnectionException}
 * saying why when that attempt fails. Never times a command out itself (callers do; see
 * {@link RespEndpoint#replyWindow()} for when a silent connection is given up). Uses only Netty APIs present in
 * both 4.1 and 4.2. Thread-safe.
 */
public final class RespClient implements AutoCloseable {
    private final RespEndpoint endpoint;
    private final EventLoop loop;
    private final EventLoopGroup ownedGroup;
    private final Link commands;
    private final Link subscriber;
    private final ConcurrentHashMap<String, List<Consumer<String>>> listeners = new ConcurrentHashMap<>();

    private RespClient(RespEndpoint endpoint, EventLoop loop, EventLoopGroup ownedGroup, ConnectionCheck check) {
        this.endpoint = endpoint;
        this.loop = loop;
        this.ownedGroup = ownedGroup;
        SslContext ssl = endpoint.tls() ? TlsContexts.forEndpoint(endpoint) : null;
        this.commands = new Link(endpoint, loop, ssl, check, null, null);
        this.subscriber = new Link(endpoint, loop, ssl, ConnectionCheck.NONE, this::dispatch, this::resubscribe);
    }

    /**
     * A client whose connections run on {@code loop} (not connected yet: see {@link #connect()}).
     *
     * @param check run on every new command connection after the built-in handshake; {@link ConnectionCheck#NONE}
     */
    public static RespClient create(RespEndpoint endpoint, EventLoop loop, ConnectionCheck check) {
        return new RespClient(endpoint, loop, null, check);
    }

    /** A client with its own one-thread event loop, shut down by {@link #close()}. */
    @SuppressWarnings("deprecation")   // NioEventLoopGroup: deprecated in Netty 4.2, the one NIO group in both lines
    public static RespClient create(RespEndpoint endpoint, ConnectionCheck check) {
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("redlock-resp", true));
        try {
            return new RespClient(endpoint, group.next(), group, check);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * Starts the command connection (once); completes when it is ready, or exceptionally when this attempt failed
     * (it keeps reconnecting in the background either way).
     */
    public CompletableFuture<Void> connect() {
        return commands.start();
    }

    /**
     * Sends one command. Reply types: {@code Long} for integers, {@code String} for simple and bulk strings,
     * {@code List<Object>} for arrays, {@code null} for nil; a Redis error fails the future with a
     * {@link RedisErrorException} carrying its text; no connection, or a connection lost before the reply, fails it
     * with a {@link RedisConnectionException}. Arguments: {@code String}, {@code byte[]} or {@code Number}. Never
     * blocks; the future completes on the event loop (do not block in callbacks).
     */
    public CompletableFuture<Object> command(Object... args) {
        return send(new RespCommand(args));
    }

    /** Sends a command made by the caller (see {@link RespCommand}); as {@link #command(Object...)}. */
    public RespCommand send(RespCommand c) {
        RespChannel ch = commands.ready();
        if (ch != null) ch.send(c);
        else commands.sendWhenReady(c);
        return c;
    }

    /** True on this client's event loop thread, where a blocking wait for one of its replies never ends. */
    public boolean inEventLoop() {
        return loop.inEventLoop();
    }

    /** The run_id of the server behind the current command connection, or null when not connected. */
    public String runId() {
        RespChannel ch = commands.ready();
        return ch == null ? null : ch.runId();
    }

    /** The redis_version of the server behind the current command connection, or null when not connected. */
    public String redisVersion() {
        RespChannel ch = commands.ready();
        return ch == null ? null : ch.redisVersion();
    }

    /**
     * Adds a listener for messages on {@code channel} (the subscriber connection is opened on first use, and
     * resubscribes after a reconnect); completes once the node confirmed the subscription. Listeners run on the
     * event loop and must not block.
     */
    public CompletableFuture<Void> subscribe(String channel, Consumer<String> listener) {
        listeners.computeIfAbsent(channel, c -> new CopyOnWriteArrayList<>()).add(listener);
        return subscriber.start().thenCompose(x -> {
            RespChannel ch = subscriber.ready();
            if (ch == null) return CompletableFuture.failedFuture(notReady(subscriber));
            return ch.command("SUBSCRIBE", channel);
        }).thenApply(x -> null);
    }

    /** Removes a listener; the last one of a channel unsubscribes it on the node. */
    public void unsubscribe(String channel, Consumer<String> listener) {
        boolean[] last = new boolean[1];
        listeners.computeIfPresent(channel, (c, list) -> {
            list.remove(listener);
            last[0] = list.isEmpty();
            return list.isEmpty() ? null : list;
        });
        RespChannel ch = subscriber.ready();
        if (last[0] && ch != null) ch.command("UNSUBSCRIBE", channel);
    }

    private void dispatch(String channel, String message) {
        List<Consumer<String>> ls = listeners.get(channel);
        if (ls == null) return;
        for (Consumer<String> l : ls) {
            try {
                l.accept(message);
            } catch (RuntimeException e) {
                // a listener's failure is its own; the others still run
            }
        }
    }

    private void resubscribe() {
        RespChannel ch = subscriber.ready();
        if (ch == null) return;
        for (String channel : listeners.keySet()) ch.command("SUBSCRIBE", channel);
    }

    private RedisConnectionException notReady(Link link) {
        Throwable why = link.lastFailure();
        if (why instanceof RedisConnectionException e && !(why instanceof RedisReplyTimeoutException)) {
            return new RedisConnectionException(e.getMessage(), e);
        }
        return new RedisConnectionException(endpoint.name() + ": not connected: " + RespChannel.describe(why), why);
    }

    public RespEndpoint endpoint() {
        return endpoint;
    }

    /**
     * Closes both connections: later commands fail at once; commands already written get their replies first, for
     * at most the connect timeout. Completes when closed (the owned event loop, if any, shuts down after). Idempotent.
     */
    public CompletableFuture<Void> closeAsync() {
        long wait = endpoint.connectTimeout().toNanos();
        CompletableFuture<Void> done = CompletableFuture.allOf(commands.close(wait), subscriber.close(wait));
        if (ownedGroup == null) return done;
        return done.whenComplete((x, e) -> ownedGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS));
    }

    /** {@link #closeAsync()}, waiting for it (at most about the connect timeout). */
    @Override
    public void close() {
        try {
            closeAsync().get(endpoint.connectTimeout().toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // closed anyway, the last replies were not waited for
        }
    }

    @Override
    public String toString() {
        return "RespClient[" + endpoint.name() + "]";
    }
}
