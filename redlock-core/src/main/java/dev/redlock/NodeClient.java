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
 */
final class NodeClient {
    private final int index;
    private final String name;
    private final RedissonClient client;
    private final RScript script;
    private final boolean owned;

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
                .setTimeout(timeoutMs)
                .setConnectTimeout(Math.max(timeoutMs, 1000))
                .setRetryAttempts(0)
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(16)
                .setSubscriptionConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(1)
                .setClientName("redlock");
        c.setTcpNoDelay(true);
        c.setTcpKeepAlive(true);
        if (address.username() != null) c.setUsername(address.username());
        if (address.password() != null) c.setPassword(address.password());
        return new NodeClient(index, address.redacted(), Redisson.create(c), true);
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

    RedissonClient redisson() {
        return client;
    }

    /** Runs a script; the future completes on a Redisson/Netty thread. */
    <R> CompletableFuture<R> eval(LuaScript lua, RScript.ReturnType type, List<Object> keys, Object... args) {
        CompletableFuture<R> bySha;
        try {
            bySha = script.<R>evalShaAsync(RScript.Mode.READ_WRITE, lua.sha(), type, keys, args).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return bySha.exceptionallyCompose(e -> {
            if (isNoScript(e)) {
                return script.<R>evalAsync(RScript.Mode.READ_WRITE, lua.source(), type, keys, args).toCompletableFuture();
            }
            return CompletableFuture.failedFuture(e);
        });
    }

    /** Loads every script in the background so the first acquire does not pay for NOSCRIPT; failures ignored. */
    void preloadScripts() {
        for (LuaScript lua : LuaScript.values()) {
            try {
                script.scriptLoadAsync(lua.source());
            } catch (RuntimeException ignored) {
                // the node may be down; EVALSHA falls back to EVAL later
            }
        }
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
