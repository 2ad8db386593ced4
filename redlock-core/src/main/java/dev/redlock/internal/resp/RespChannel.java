package dev.redlock.internal.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.internal.PlatformDependent;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * One connection to one node: writes commands in call order and matches replies in FIFO order. Commands written on
 * the event loop go out unflushed and the connection is flushed once per loop turn; commands from other threads are
 * queued and written, and flushed, by one task (auto-pipelining: many callers, few syscalls). No timer per command:
 * one periodic check closes the connection when commands are outstanding and no reply came for the reply window.
 * On a subscriber connection, {@code message} pushes go to the push listener instead of the FIFO.
 */
final class RespChannel extends ChannelDuplexHandler implements HandshakeConnection {
    private final RespEndpoint endpoint;
    private final BiConsumer<String, String> pushes;    // null on a command connection
    private final ArrayDeque<RespCommand> pending = new ArrayDeque<>();   // loop only
    private final Queue<RespCommand> inbox = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drain = this::drain;
    private final Runnable flush = this::flushNow;
    private boolean flushScheduled;                     // loop only
    private long lastProgressNanos;                     // loop only
    private ChannelHandlerContext ctx;
    private EventLoop loop;
    private ScheduledFuture<?> staleCheck;
    private volatile boolean open = true;
    private boolean closeWhenIdle;                      // loop only
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile Throwable closeCause;
    private volatile String runId;
    private volatile String redisVersion;

    RespChannel(RespEndpoint endpoint, BiConsumer<String, String> pushes) {
        this.endpoint = endpoint;
        this.pushes = pushes;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.loop = ctx.channel().eventLoop();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        long window = endpoint.replyWindow().toNanos();
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(50), window / 4);
        staleCheck = loop.scheduleAtFixedRate(this::checkStalled, period, period, TimeUnit.NANOSECONDS);
        super.channelActive(ctx);
    }

    Channel channel() {
        return ctx.channel();
    }

    /** Sends a command on this connection, from any thread; it fails at once when the connection is closed. */
    void send(RespCommand c) {
        if (!open) {
            c.completeExceptionally(closedException());
            return;
        }
        if (loop.inEventLoop()) {
            write(c);
            if (!flushScheduled) {
                flushScheduled = true;
                loop.execute(flush);
            }
        } else {
            inbox.add(c);
            if (drainScheduled.compareAndSet(false, true)) loop.execute(drain);
        }
    }

    @Override
    public RespCommand command(Object... args) {
        RespCommand c = new RespCommand(args);
        send(c);
        return c;
    }

    private void drain() {
        drainScheduled.set(false);
        for (RespCommand c; (c = inbox.poll()) != null; ) write(c);
        flushNow();
    }

    private void flushNow() {
        flushScheduled = false;
        ctx.flush();
    }

    private void write(RespCommand c) {
        if (!open || !ctx.channel().isActive()) {
            c.completeExceptionally(closedException());
            return;
        }
        ByteBuf buf;
        try {
            buf = RespEncoder.encode(ctx.alloc(), c.args);
        } catch (RuntimeException e) {
            c.completeExceptionally(e);
            return;
        }
        if (pending.isEmpty()) lastProgressNanos = System.nanoTime();
        pending.add(c);
        ctx.write(buf, ctx.voidPromise());
    }

    /**
     * The command the next reply answers (the decoder's hint for a typed reply, see {@link FlatArrayReader}), or
     * null: none outstanding, or a subscriber connection (where a push may come first). Loop only.
     */
    RespCommand awaitingReply() {
        return pushes == null ? pending.peek() : null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastProgressNanos = System.nanoTime();
        if (pushes != null && msg instanceof List<?> l && l.size() == 3 && "message".equals(l.get(0))) {
            pushes.accept((String) l.get(1), (String) l.get(2));
            return;
        }
        RespCommand c = pending.poll();
        if (c == null) {
            closeWith(new RedisConnectionException(endpoint.name() + ": reply without a command (protocol out of step)"));
            return;
        }
        if (msg instanceof RedisErrorException e) c.error(e);
        else c.complete(msg == RespDecoder.NIL ? null : msg);
        if (closeWhenIdle && pending.isEmpty()) closeWith(new RedisConnectionException(endpoint.name() + ": client closed"));
    }

    /**
     * Closes once every written command got its reply, or after {@code maxWaitNanos} (loop only): closing with
     * replies unread makes the kernel reset the connection, and the server may then drop commands it has not read
     * yet (a release, say). Completes when closed.
     */
    CompletableFuture<Void> closeWhenIdle(long maxWaitNanos) {
        RedisConnectionException bye = new RedisConnectionException(endpoint.name() + ": client closed");
        if (pending.isEmpty() || !open) {
            closeWith(bye);
        } else {
            closeWhenIdle = true;
            loop.schedule(() -> closeWith(bye), maxWaitNanos, TimeUnit.NANOSECONDS);
        }
        return closed;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
            closeWith(new RedisConnectionException(endpoint.name() + ": TLS handshake failed: " + describe(e.cause()),
                    e.cause()));
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        closeWith(cause instanceof RedisConnectionException ? cause
                : new RedisConnectionException(endpoint.name() + ": " + describe(cause), cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        open = false;
        closed.complete(null);
        if (staleCheck != null) staleCheck.cancel(false);
        RedisConnectionException failure = closedException();
        for (RespCommand c; (c = pending.poll()) != null; ) c.completeExceptionally(failure);
        for (RespCommand c; (c = inbox.poll()) != null; ) c.completeExceptionally(failure);
        super.channelInactive(ctx);
    }

    /** Closes the connection; pending commands fail with {@code cause} (the first cause given wins). */
    void closeWith(Throwable cause) {
        if (closeCause == null) closeCause = cause;
        open = false;
        if (ctx != null) ctx.channel().close().addListener(f -> closed.complete(null));
        else closed.complete(null);
    }

    /** Why the connection closed (null while open or when it closed without a known cause). */
    Throwable closeCause() {
        return closeCause;
    }

    boolean isOpen() {
        return open;
    }

    private RedisConnectionException closedException() {
        Throwable c = closeCause;
        if (c instanceof RedisConnectionException e) return e;
        return new RedisConnectionException(endpoint.name() + ": connection closed"
                + (c == null ? "" : ": " + describe(c)), c);
    }

    private void checkStalled() {
        if (pending.isEmpty() || !open) return;
        long silent = System.nanoTime() - lastProgressNanos;
        if (silent > endpoint.replyWindow().toNanos()) {
            closeWith(new RedisReplyTimeoutException(endpoint.name() + ": no reply for "
                    + TimeUnit.NANOSECONDS.toMillis(silent) + " ms with " + pending.size()
                    + " commands outstanding; connection closed"));
        }
    }

    void handshakeResult(String runId, String redisVersion) {
        this.runId = runId;
        this.redisVersion = redisVersion;
    }

    @Override
    public String runId() {
        return runId;
    }

    @Override
    public String redisVersion() {
        return redisVersion;
    }

    @Override
    public String endpoint() {
        return endpoint.name();
    }

    static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isEmpty() ? t.getClass().getSimpleName() : m;
    }
}
