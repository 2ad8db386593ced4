package dev.redlock;

import io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import org.redisson.Redisson;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.SingleServerConfig;

/**
 * One independent Redis master, reached through its own Redisson client. Runs the library's scripts by SHA and
 * falls back to the full source on {@code NOSCRIPT}. Never retries: the quorum round is the retry unit.
 *
 * <p>Redisson's lazy initialization connects <em>synchronously</em> on the thread of the first command (up to the
 * connect timeout, and again on every command while the node is unreachable). Commands are sent from the Netty
 * event loop, which must never block (it is the loop that would perform the connect), so until this node has
 * answered once, commands are handed, in order, to a connector thread; after that they go straight to Redisson.
 */
final class NodeClient {
    /** Runs the first, possibly blocking, commands of nodes that have not answered yet. Daemon threads, idle ones exit. */
    private static final ExecutorService CONNECTOR = newConnector();

    private final int index;
    private final String name;
    private final RedissonClient client;
    private final RScript script;
    private final boolean owned;
    /** True once the node has answered a command: Redisson is initialized and sends no longer block. */
    private volatile boolean ready;
    /** A connecting SCRIPT LOAD is in flight (connector thread only writes it true). */
    private volatile boolean preconnecting;
    /** Orders the commands handed to the connector (guarded by this). */
    private CompletableFuture<Void> connecting = CompletableFuture.completedFuture(null);

    private NodeClient(int index, String name, RedissonClient client, boolean owned) {
        this.index = index;
        this.name = name;
        this.client = client;
        this.script = client.getScript(StringCodec.INSTANCE);
        this.owned = owned;
    }

    /** A client we create and own; lazily connected, so a node that is down now does not fail start-up. */
    static NodeClient create(int index, NodeAddress address, RedlockConfig cfg, EventLoopGroup group,
                             ExecutorService executor) {
        Config c = new Config();
        c.setCodec(StringCodec.INSTANCE);
        c.setLazyInitialization(true);
        c.setEventLoopGroup(group);
        c.setExecutor(executor);
        int timeoutMs = (int) Math.max(1, cfg.nodeTimeout().toMillis());
        SingleServerConfig s = c.useSingleServer()
                .setAddress(address.address())
                .setDatabase(address.database())
                // The vote timeout is ours (nodeTimeout, QuorumCall's timer). Redisson keeps waiting longer for the
                // reply so a grant that lands after the vote timed out is still seen, and released (late grants).
                .setTimeout(lateReplyWindowMs(timeoutMs))
                .setConnectTimeout(connectTimeoutMs(cfg))
                .setRetryAttempts(0)
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(16)
                .setSubscriptionConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(1)
                .setClientName("redlock");
        c.setTcpNoDelay(true);
        c.setTcpKeepAlive(true);
        // Redisson checks every command argument for live-object references (reflection per argument per command,
        // visible in the acquire profile; no measurable latency change in an interleaved A/B); ours are strings
        c.setReferenceEnabled(false);
        if (address.username() != null) c.setUsername(address.username());
        if (address.password() != null) c.setPassword(address.password());
        return new NodeClient(index, address.redacted(), Redisson.create(c), true);
    }

    static int connectTimeoutMs(RedlockConfig cfg) {
        return (int) Math.max(1000, cfg.nodeTimeout().toMillis());
    }

    /** How long Redisson waits for a reply: well past nodeTimeout, so late grants are seen and released. */
    static int lateReplyWindowMs(int nodeTimeoutMs) {
        return (int) Math.min(60_000, Math.max(2_000L, 10L * nodeTimeoutMs));
    }

    /** A client the user manages: we never shut it down. */
    static NodeClient wrap(int index, String name, RedissonClient client) {
        return new NodeClient(index, name, client, false);
    }

    int index() {
        return index;
    }

    String name() {
        return name;
    }

    /**
     * Runs a script; the future completes on a Redisson/Netty thread. Never blocks the caller: before the node has
     * answered once, the command is sent from the connector thread (in call order).
     */
    <R> CompletableFuture<R> eval(LuaScript lua, RScript.ReturnType type, List<Object> keys, Object... args) {
        if (ready) return evalNow(lua, type, keys, args);
        Deferred<R> out = new Deferred<>();
        viaConnector(() -> {
            if (!ready && !out.abandoned && !preconnecting) {
                // connect first (Redisson connects inside the first command, blocking, up to the connect timeout)
                // with a harmless SCRIPT LOAD, so the abandonment below is decided after the wait, not before it;
                // one at a time (a burst of first commands must not become a burst of SCRIPT LOADs)
                preconnecting = true;
                try {
                    script.scriptLoadAsync(lua.source()).whenComplete((x, e) -> {
                        if (e == null) ready = true;
                        preconnecting = false;
                    });
                } catch (RuntimeException e) {
                    preconnecting = false;   // unreachable: evalNow below fails the same way
                }
            }
            if (out.abandoned && lua != LuaScript.RELEASE) {   // a release is always sent: it only ever removes ours
                out.completeExceptionally(new IllegalStateException("not sent: the node timed out before it was connected"));
                return;
            }
            this.<R>evalNow(lua, type, keys, args).whenComplete((r, e) -> {
                if (e == null) out.complete(r);
                else out.completeExceptionally(e);
            });
        });
        return out;
    }

    /**
     * A command waiting for the connector. Once its quorum call has counted the node as timed out it is
     * {@linkplain #abandon() abandoned}: a grant sent that late could only arrive after its caller stopped listening
     * (for example after {@link Redlock#close()}), so it is not sent at all (releases excepted).
     */
    static final class Deferred<R> extends CompletableFuture<R> {
        private volatile boolean abandoned;

        void abandon() {
            abandoned = true;
        }
    }

    private <R> CompletableFuture<R> evalNow(LuaScript lua, RScript.ReturnType type, List<Object> keys, Object... args) {
        CompletableFuture<R> bySha;
        try {
            bySha = script.<R>evalShaAsync(RScript.Mode.READ_WRITE, lua.sha(), type, keys, args).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<R> result = bySha.exceptionallyCompose(e -> {
            if (isNoScript(e)) {
                return script.<R>evalAsync(RScript.Mode.READ_WRITE, lua.source(), type, keys, args).toCompletableFuture();
            }
            return CompletableFuture.failedFuture(e);
        });
        if (!ready) result.thenRun(() -> ready = true);
        return result;
    }

    /** Hands a send to the connector thread after any earlier one of this node; completes once it was sent. */
    private CompletableFuture<Void> viaConnector(Runnable send) {
        synchronized (this) {
            connecting = connecting.handleAsync((x, e) -> {
                try {
                    send.run();
                } catch (RuntimeException ignored) {
                    // evalNow turns send errors into failed futures; nothing else can throw here
                }
                return null;
            }, CONNECTOR);
            return connecting;
        }
    }

    /**
     * Connects (Redisson's lazy initialization) and loads every script, on the connector thread, so the first
     * acquire pays for neither; completes once the node answered (or the attempt failed). Failures ignored.
     */
    CompletableFuture<Void> preloadScripts() {
        CompletableFuture<Void> answered = new CompletableFuture<>();
        viaConnector(() -> {
            CompletableFuture<?>[] loads = new CompletableFuture<?>[LuaScript.values().length];
            int i = 0;
            for (LuaScript lua : LuaScript.values()) {
                CompletableFuture<String> f;
                try {
                    f = script.scriptLoadAsync(lua.source()).toCompletableFuture();
                    f.thenRun(() -> ready = true);
                } catch (RuntimeException e) {
                    f = CompletableFuture.failedFuture(e);   // the node may be down; EVALSHA falls back to EVAL later
                }
                loads[i++] = f;
            }
            CompletableFuture.allOf(loads).whenComplete((x, e) -> answered.complete(null));
        }).whenComplete((x, e) -> {
            if (e != null) answered.complete(null);
        });
        return answered;
    }

    /**
     * Subscribes to a pub/sub channel on this node (Redisson multiplexes channels over its subscription
     * connection); {@code onMessage} runs on a Redisson thread. Completes with the listener id once subscribed.
     */
    CompletableFuture<Integer> subscribe(String channel, java.util.function.Consumer<String> onMessage) {
        CompletableFuture<Integer> out = new CompletableFuture<>();
        Runnable send = () -> {
            try {
                client.getTopic(channel, StringCodec.INSTANCE)
                        .addListenerAsync(String.class, (ch, msg) -> onMessage.accept(msg))
                        .whenComplete((id, e) -> {
                            if (e == null) out.complete(id);
                            else out.completeExceptionally(e);
                        });
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        };
        if (ready) send.run();
        else viaConnector(send);
        return out;
    }

    /**
     * The run_id of the process this client's connection reaches, for the ACQUIRE script, or "" when unknown: the
     * script then reads it itself from {@code INFO server} (Redisson pools and re-opens connections on its own, so
     * no run_id learned earlier can be tied to the connection a command is written on).
     */
    String runId() {
        return "";
    }

    /**
     * Any Redis command (INFO, TIME, CONFIG GET, ...), for checks rather than the lock path. Replies: an integer as
     * {@link Long}, a simple or bulk string as {@link String}, an array as {@code List<Object>}, nil as {@code null};
     * an error reply fails the future. Never blocks the caller.
     */
    CompletableFuture<Object> command(String... args) {
        CompletableFuture<Object> out = new CompletableFuture<>();
        Runnable send = () -> {
            try {
                @SuppressWarnings({"unchecked", "rawtypes"})
                org.redisson.client.protocol.RedisCommand<Object> cmd = new org.redisson.client.protocol.RedisCommand(
                        args[0], new org.redisson.client.protocol.decoder.ObjectListReplayDecoder());
                ((org.redisson.Redisson) client).getCommandExecutor()
                        .<Object, Object>writeAsync((String) null, StringCodec.INSTANCE, cmd,
                                (Object[]) java.util.Arrays.copyOfRange(args, 1, args.length))
                        .whenComplete((r, e) -> {
                            if (e == null) {
                                ready = true;
                                out.complete(r);
                            } else {
                                out.completeExceptionally(e);
                            }
                        });
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        };
        if (ready) send.run();
        else viaConnector(send);
        return out;
    }

    /** EXISTS key (a hint for waiters, never a lock decision). Never blocks the caller. */
    CompletableFuture<Boolean> exists(String key) {
        CompletableFuture<Boolean> out = new CompletableFuture<>();
        Runnable send = () -> {
            try {
                client.getBucket(key, StringCodec.INSTANCE).isExistsAsync().whenComplete((r, e) -> {
                    if (e == null) out.complete(r);
                    else out.completeExceptionally(e);
                });
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        };
        if (ready) send.run();
        else viaConnector(send);
        return out;
    }

    /** Removes a listener added by {@link #subscribe}; Redisson unsubscribes when it was the channel's last. */
    void unsubscribe(String channel, int listenerId) {
        Runnable send = () -> {
            try {
                client.getTopic(channel, StringCodec.INSTANCE).removeListenerAsync(listenerId);
            } catch (RuntimeException ignored) {
                // shut down or unreachable: the subscription dies with the connection
            }
        };
        if (ready) send.run();
        else viaConnector(send);
    }

    private static ExecutorService newConnector() {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        // unbounded like a cached pool, but each node's sends are chained, so at most one thread per unready node
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(0, Integer.MAX_VALUE, 30,
                java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "redlock-connect-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        return pool;
    }

    void shutdown() {
        if (owned && !client.isShutdown()) client.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
    }

    static boolean isNoScript(Throwable e) {
        Throwable t = unwrap(e);
        for (; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && m.contains("NOSCRIPT")) return true;
        }
        return false;
    }

    static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) e = e.getCause();
        return e;
    }

    /** A one-line description of a node failure (with its root cause), never containing credentials. */
    static String describe(Throwable e) {
        Throwable t = unwrap(e);
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String text = oneLine(t);
        if (root != t) {
            String rootText = oneLine(root);
            if (!text.contains(rootText)) text += "; cause: " + rootText;
        }
        return text.replaceAll("//[^/@\\s]*@", "//***@");
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        if (m != null) {
            int cut = m.indexOf(" channel: [");          // Redisson appends channel and command details
            if (cut > 0) m = m.substring(0, cut).replaceAll("[.,]+$", "");
        }
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
