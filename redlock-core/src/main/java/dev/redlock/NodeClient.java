package dev.redlock;

import dev.redlock.internal.Scripts;
import dev.redlock.internal.resp.ConnectionCheck;
import dev.redlock.internal.resp.FlatArrayReader;
import dev.redlock.internal.resp.HandshakeConnection;
import dev.redlock.internal.resp.RedisErrorException;
import dev.redlock.internal.resp.RespClient;
import dev.redlock.internal.resp.RespCommand;
import dev.redlock.internal.resp.RespEndpoint;
import dev.redlock.spi.NodeTransport;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One independent Redis master: the library's own RESP transport ({@link RespClient}: one multiplexed,
 * auto-pipelined connection, a subscriber connection, reconnect with backoff, handshake on every connect), or an
 * adapter's {@link NodeTransport}. Runs the library's scripts by SHA and falls back to the source on
 * {@code NOSCRIPT}. Never retries and never times out a command: the quorum round does both.
 *
 * <p>{@link #command(Object...)} runs any command (reply types: {@code Long}, {@code String}, {@code List<Object>},
 * {@code null}; a Redis error fails the future with its text). Nothing the transport learned at its connection
 * handshake is sent as a node's identity: the scripts read it from the process running them (a proxy in front of a
 * failover group can move an open connection to another server).
 */
final class NodeClient {
    private final int index;
    private final String name;
    private final RespClient resp;          // the library's transport, or null
    private final NodeTransport adapter;    // an adapter's transport, or null
    private final AtomicInteger listenerIds = new AtomicInteger();
    private final Map<Integer, Consumer<String>> listeners = new ConcurrentHashMap<>();

    private NodeClient(int index, String name, RespClient resp, NodeTransport adapter) {
        this.index = index;
        this.name = name;
        this.resp = resp;
        this.adapter = adapter;
    }

    /**
     * The library's own transport for one node, on {@code loop}; not connected yet ({@link #connect()}).
     *
     * @param check run on every new connection after AUTH/SELECT/{@code INFO server} (the scripts are loaded first)
     */
    static NodeClient create(int index, NodeAddress address, RedlockConfig cfg, EventLoop loop, ConnectionCheck check) {
        ConnectionCheck handshake = ((ConnectionCheck) NodeClient::loadScripts).andThen(check);
        return new NodeClient(index, address.redacted(), RespClient.create(endpoint(address, cfg), loop, handshake), null);
    }

    /** The endpoint of one configured node: its URI's host, TLS, credentials and database; the config's TLS stores. */
    static RespEndpoint endpoint(NodeAddress a, RedlockConfig cfg) {
        return RespEndpoint.builder(a.host(), a.port())
                .name(a.redacted())
                .tls(a.tls())
                .trustStore(cfg.tlsTrustStorePath(), cfg.tlsTrustStorePassword())
                .keyStore(cfg.tlsKeyStorePath(), cfg.tlsKeyStorePassword())
                .credentials(a.username(), a.password())
                .database(a.database())
                .connectTimeout(Duration.ofMillis(connectTimeoutMs(cfg)))
                .replyWindow(Duration.ofMillis(lateReplyWindowMs(cfg.nodeTimeout().toMillis())))
                .build();
    }

    /** An adapter's transport (see {@link NodeTransport}); {@link #shutdown()} calls its {@code close()}. */
    static NodeClient over(int index, String name, NodeTransport transport) {
        return new NodeClient(index, name, null, transport);
    }

    static int connectTimeoutMs(RedlockConfig cfg) {
        return (int) Math.max(1000, cfg.nodeTimeout().toMillis());
    }

    /**
     * How long a connection with commands outstanding may stay silent before it is closed and reconnected: well
     * past nodeTimeout, so a grant that lands after its vote timed out is still seen, and released (late grants).
     */
    static long lateReplyWindowMs(long nodeTimeoutMs) {
        return Math.min(60_000, Math.max(2_000L, 10L * nodeTimeoutMs));
    }

    /** Part of every handshake: SCRIPT LOAD of each script (pipelined), so EVALSHA hits; failures are ignored. */
    private static CompletableFuture<Void> loadScripts(HandshakeConnection c) {
        LuaScript[] all = LuaScript.values();
        CompletableFuture<?>[] loads = new CompletableFuture<?>[all.length];
        for (int i = 0; i < all.length; i++) loads[i] = c.command("SCRIPT", "LOAD", all[i].source());
        return CompletableFuture.allOf(loads).handle((x, e) -> null);
    }

    int index() {
        return index;
    }

    String name() {
        return name;
    }

    /** Starts connecting; completes when ready or when the first attempt failed (never exceptionally). */
    CompletableFuture<Void> connect() {
        if (resp == null) return CompletableFuture.completedFuture(null);
        return resp.connect().handle((x, e) -> null);
    }

    /** Any command; see the class comment for reply types. Never blocks. */
    CompletableFuture<Object> command(Object... args) {
        if (resp != null) return resp.command(args);
        String[] text = new String[args.length];
        for (int i = 0; i < args.length; i++) text[i] = String.valueOf(args[i]);
        try {
            return adapter.command(text);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Runs a script by SHA, and by source when the node answers NOSCRIPT. Never blocks. */
    CompletableFuture<Object> eval(LuaScript lua, List<Object> keys, Object... args) {
        return eval(lua, scriptCommand(lua, keys, args));
    }

    /**
     * Runs a script command made by {@link #scriptCommand} (one array may be sent to every node of a quorum call: it
     * is never modified); on {@code NOSCRIPT}, sends it again by source. Never blocks.
     */
    CompletableFuture<Object> eval(LuaScript lua, Object[] evalSha) {
        if (resp != null) return resp.send(new ScriptCommand(resp, lua, evalSha));
        CompletableFuture<Object> first = command(evalSha);
        return first.exceptionallyCompose(e -> Scripts.isNoScript(e) ? command(bySource(lua, evalSha)) : first);
    }

    /** {@code EVALSHA sha numkeys keys... args...}. */
    static Object[] scriptCommand(LuaScript lua, List<Object> keys, Object... args) {
        Object[] a = scriptCommand(lua, keys.size(), args.length);
        int i = 3;
        for (Object k : keys) a[i++] = k;
        for (Object v : args) a[i++] = v;
        return a;
    }

    /**
     * {@code EVALSHA sha numkeys} in a command array sized for {@code keys} keys and {@code args} arguments, which
     * the caller writes from index 3 (the hot paths' one allocation per command, no key list or argument array).
     */
    static Object[] scriptCommand(LuaScript lua, int keys, int args) {
        Object[] a = new Object[3 + keys + args];
        a[0] = "EVALSHA";
        a[1] = lua.sha();
        a[2] = keys < NUMKEYS.length ? NUMKEYS[keys] : Integer.toString(keys);
        return a;
    }

    private static final String[] NUMKEYS = {"0", "1", "2", "3", "4"};

    private static Object[] bySource(LuaScript lua, Object[] evalSha) {
        Object[] a = evalSha.clone();
        a[0] = "EVAL";
        a[1] = lua.source();
        return a;
    }

    /** A script sent by SHA that sends itself again by source when the node does not have it: one object per call. */
    private static final class ScriptCommand extends RespCommand {
        private final RespClient client;
        private final LuaScript lua;
        private boolean retried;

        ScriptCommand(RespClient client, LuaScript lua, Object[] evalSha) {
            super(evalSha);
            this.client = client;
            this.lua = lua;
        }

        @Override
        protected FlatArrayReader flatArrayReader() {
            return lua == LuaScript.ACQUIRE ? AcquireReply.READER : null;
        }

        @Override
        protected void error(RedisErrorException e) {
            if (!retried && e.isNoScript()) {
                retried = true;
                args = bySource(lua, args);
                client.send(this);
            } else {
                super.error(e);
            }
        }
    }

    /**
     * Subscribes to a pub/sub channel on this node (the dedicated subscriber connection); {@code onMessage} runs on
     * the I/O thread. Completes with a listener id once subscribed.
     */
    CompletableFuture<Integer> subscribe(String channel, Consumer<String> onMessage) {
        int id = listenerIds.incrementAndGet();
        Consumer<String> listener = onMessage::accept;     // a distinct instance per subscription
        listeners.put(id, listener);
        CompletableFuture<Void> subscribed;
        try {
            subscribed = resp != null ? resp.subscribe(channel, listener) : adapter.subscribe(channel, listener);
        } catch (RuntimeException e) {
            subscribed = CompletableFuture.failedFuture(e);
        }
        return subscribed.handle((x, e) -> {
            if (e == null) return id;
            unsubscribe(channel, id);
            throw e instanceof CompletionException c ? c : new CompletionException(e);
        });
    }

    /** Removes a listener added by {@link #subscribe}; the channel's last listener unsubscribes it. */
    void unsubscribe(String channel, int listenerId) {
        Consumer<String> l = listeners.remove(listenerId);
        if (l == null) return;
        try {
            if (resp != null) resp.unsubscribe(channel, l);
            else adapter.unsubscribe(channel, l);
        } catch (RuntimeException ignored) {
            // shut down or unreachable: the subscription dies with the connection
        }
    }

    /** EXISTS key (a hint for waiters, never a lock decision). Never blocks. */
    CompletableFuture<Boolean> exists(String key) {
        return command("EXISTS", key).thenApply(r -> r instanceof Number n && n.longValue() > 0);
    }

    /**
     * True when this node's commands run in the order they were sent (the library's transport: one connection per
     * node, replies in order, and a command that waits for a reconnect waits behind the ones sent before it).
     */
    boolean inOrder() {
        return resp != null;
    }

    /**
     * Closes the node's connections once the replies of commands already sent are in (at most the connect timeout;
     * closing with replies unread could make the node drop a release it had not read yet). An adapter's transport
     * gets its {@code close()} call.
     */
    CompletableFuture<Void> shutdown() {
        if (resp != null) return resp.closeAsync();
        try {
            adapter.close();
        } catch (RuntimeException ignored) {
            // the adapter's problem; this node is closed for us either way
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public String toString() {
        return "NodeClient[" + name + "]";
    }
}
