package dev.redlock.fencing;

import dev.redlock.RedlockConfig;
import dev.redlock.RedlockException;
import dev.redlock.internal.Endpoints;
import dev.redlock.internal.Failures;
import dev.redlock.internal.Scripts;
import dev.redlock.internal.resp.ConnectionCheck;
import dev.redlock.internal.resp.RespClient;
import dev.redlock.spi.NodeTransport;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Fenced values in Redis: {@link #write} stores a value under a key only if the presented fencing token is at least
 * the token the key was last written with, so one lease (or one leader's term) can write as often as it needs while a
 * superseded holder, whose token is smaller, is refused. {@link #strict()} gives a store that also refuses an equal
 * token (one write per token). Check and write are one Lua script, so they are atomic on the Redis server. Each key is
 * a hash with the fields {@code value} and {@code fence}, owned by this class.
 *
 * <pre>{@code
 * try (FencedRedisStore store = FencedRedisStore.connect("redis://10.0.0.9:6379");
 *      Lease lease = redlock.acquire("report", ttl)) {
 *     store.write("report:latest", render(), lease.fencingToken()).orThrow();
 * }
 * }</pre>
 * Over a {@code RedissonClient} the application manages: {@code RedissonFencedStores.create(client)} in the
 * {@code redlock-redisson} module.
 *
 * <p><b>What it guarantees.</b> On one Redis server that keeps its data, a write with a token smaller than the stored
 * fence (in strict mode: not greater) changes nothing and is reported as {@link FencedWriteResult.Status#REJECTED_STALE}
 * with the stored fence; the stored fence never decreases; the value always belongs to the highest token accepted.
 * A missing key counts as fence 0, so the first write with any (positive) token is applied. Tokens are compared
 * exactly over the whole {@code long} range (as decimal digits, not as Lua doubles).
 *
 * <p><b>What it does not guarantee.</b>
 * <ul>
 *   <li>Durability of the fence is Redis's: a restart without persistence, a {@code FLUSHALL}, eviction under a
 *       {@code maxmemory} {@code allkeys-*} policy, an {@code EXPIRE} someone set on the key, or a failover to a
 *       replica that had not received the last write all forget the fence, and a stale writer could then be
 *       accepted. Keep these keys on a server with persistence and a {@code noeviction}/{@code volatile-*} policy.</li>
 *   <li>A write that fails or times out has an unknown outcome (the script may have run): {@link #write} throws a
 *       {@link RedlockException}; read the key to find out.</li>
 *   <li>Other commands on the key (a plain {@code HSET}) bypass the check. A key holding a non-hash, or a
 *       {@code fence} field that is not a positive decimal written by this class, makes the script fail rather than
 *       guess.</li>
 * </ul>
 *
 * <p>Values are UTF-8 strings. Works with any Redis server, one node of a {@code Redlock}'s deployment
 * ({@link #connect(RedlockConfig, int)}) or an unrelated one ({@link #connect(String)}). {@link #close()} closes the
 * connection the store opened (a transport given to {@link #create(NodeTransport)} gets its {@code close()} call).
 * Thread-safe.
 */
public final class FencedRedisStore implements AutoCloseable {
    private static final String FENCE_FIELD = "fence";
    private static final String VALUE_FIELD = "value";

    /**
     * KEYS[1] the hash; ARGV: value, token (positive decimal, no leading zeros), {@code strict} or {@code same-or-newer}.
     * Rejects a token below the stored fence, and in strict mode one equal to it. Returns {1, token} when written,
     * {0, stored fence} when rejected. Reads before it writes, so an error leaves the key untouched.
     */
    static final String WRITE_SCRIPT = """
            local function compare(a, b)
              if #a ~= #b then return #a < #b and -1 or 1 end
              local cut = #a - 9
              if cut > 0 then
                local ha, hb = tonumber(string.sub(a, 1, cut)), tonumber(string.sub(b, 1, cut))
                if ha ~= hb then return ha < hb and -1 or 1 end
                a, b = string.sub(a, cut + 1), string.sub(b, cut + 1)
              end
              local la, lb = tonumber(a), tonumber(b)
              if la == lb then return 0 end
              return la < lb and -1 or 1
            end
            local cur = redis.call('HGET', KEYS[1], 'fence')
            if cur then
              if not string.match(cur, '^[1-9]%d*$') or #cur > 19 or compare(cur, '9223372036854775807') > 0 then
                return redis.error_reply('fenced key ' .. KEYS[1] .. ' has a malformed fence: ' .. cur)
              end
              local c = compare(ARGV[2], cur)
              if c < 0 or (c == 0 and ARGV[3] == 'strict') then return {0, cur} end
            end
            redis.call('HSET', KEYS[1], 'value', ARGV[1], 'fence', ARGV[2])
            return {1, ARGV[2]}
            """;
    private static final String WRITE_SHA = Scripts.sha1(WRITE_SCRIPT);
    /** The longest a blocking call waits for the server: its outcome is then unknown. */
    private static final long BLOCKING_BOUND_MS = 30_000;

    private final String name;
    private final Function<String[], CompletableFuture<Object>> commands;
    private final Runnable closer;
    private final BooleanSupplier onIoThread;
    private final boolean strict;

    private FencedRedisStore(String name, Function<String[], CompletableFuture<Object>> commands, Runnable closer,
                             BooleanSupplier onIoThread, boolean strict) {
        this.name = name;
        this.commands = commands;
        this.closer = closer;
        this.onIoThread = onIoThread;
        this.strict = strict;
    }

    /**
     * A store on one Redis server (accepting a token equal to the stored fence; see {@link #strict()}), over the
     * library's own transport ({@code redis://} or {@code rediss://} with the JDK's trust store; user, password and
     * database as in {@code RedlockConfig} node URIs). Waits for the
     * connection at most about a second; a server that is down makes writes fail until it is reachable again.
     *
     * @throws IllegalArgumentException on a malformed URI (the message never shows the password)
     */
    public static FencedRedisStore connect(String uri) {
        return connect(RedlockConfig.builder().nodes(uri).restartQuarantine(Duration.ZERO).build(), 0);
    }

    /**
     * A store on node {@code node} (0-based) of {@code config}, with its credentials, database and TLS settings
     * (trust store and key store), over the library's own transport. Waits for the connection at most about the
     * config's connect timeout.
     *
     * @throws IndexOutOfBoundsException when the config has no such node
     */
    public static FencedRedisStore connect(RedlockConfig config, int node) {
        RespClient client = RespClient.create(Endpoints.of(config, node), ConnectionCheck.NONE);
        try {
            client.connect().get(client.endpoint().connectTimeout().toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // not reachable now: writes fail (typed) until the background reconnect succeeds
        }
        return new FencedRedisStore(client.endpoint().name(), args -> client.command((Object[]) args), client::close,
                client::inEventLoop, false);
    }

    /** For adapter modules: a store over an adapter's transport (see {@link NodeTransport}); keys used as given. */
    public static FencedRedisStore create(NodeTransport transport) {
        Objects.requireNonNull(transport, "transport");
        return new FencedRedisStore(transport.toString(), transport::command, transport::close, () -> false, false);
    }

    /**
     * The same store in strict mode: a token must be strictly greater than the stored fence, so each token writes a
     * key at most once. Both modes share the keys; a key's fence means the same in either. The copy shares this store's connection: closing either closes both.
     */
    public FencedRedisStore strict() {
        return strict ? this : new FencedRedisStore(name, commands, closer, onIoThread, true);
    }

    /** True when a token must be strictly greater than the stored fence (one write per token). */
    public boolean isStrict() {
        return strict;
    }

    /**
     * Stores {@code value} with {@code token} as the key's fence if {@code token} is at least the stored fence (in
     * strict mode: greater than it), or the key does not exist.
     *
     * @return {@code APPLIED}, or {@code REJECTED_STALE} with the stored fence (nothing written)
     * @throws IllegalArgumentException when {@code token <= 0}
     * @throws RedlockException         when Redis failed or did not answer (within 30 s); the write may or may not
     *                                  have happened
     * @throws IllegalStateException    on the store's own I/O thread (in a callback of {@link #writeAsync}): use
     *                                  {@link #writeAsync} there
     */
    public FencedWriteResult write(String key, String value, long token) {
        checkMayBlock("FencedRedisStore.write()");
        return join(writeAsync(key, value, token), key);
    }

    private void checkMayBlock(String method) {
        if (onIoThread.getAsBoolean()) {
            throw new IllegalStateException(method + " blocks, and was called on the store's own I/O thread, where it "
                    + "would wait for that very thread; use FencedRedisStore.writeAsync() there");
        }
    }

    /**
     * Asynchronous {@link #write}: completes with the result, or exceptionally with a {@link RedlockException}
     * (outcome unknown). Completes on an I/O thread: do not block in its callbacks.
     *
     * @throws IllegalArgumentException when {@code token <= 0}
     */
    public CompletableFuture<FencedWriteResult> writeAsync(String key, String value, long token) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (token <= 0) throw new IllegalArgumentException("token must be > 0 (every lease token is), got " + token);
        String target = "redis key " + key;
        String tokenText = Long.toString(token);
        return evalWrite(key, value, tokenText, strict ? "strict" : "same-or-newer")
                .handle((reply, error) -> {
                    if (error != null) {
                        throw new CompletionException(new RedlockException("fenced write to " + target + " with token "
                                + token + " failed; it may or may not have been applied: " + Failures.describe(error), Failures.unwrap(error)));
                    }
                    List<?> r = (List<?>) reply;
                    long status = Long.parseLong(String.valueOf(r.get(0)));
                    long fence = fence(key, r.get(1));
                    return status == 1 ? FencedWriteResult.applied(target, token)
                            : FencedWriteResult.rejected(target, token, fence);
                });
    }

    /**
     * The stored value and its fence, or empty when the key does not exist.
     *
     * @throws RedlockException        when Redis failed or did not answer (within 30 s), or the stored fence is not
     *                                  a decimal this class wrote
     * @throws IllegalStateException    on the store's own I/O thread
     */
    public Optional<FencedValue> read(String key) {
        Objects.requireNonNull(key, "key");
        checkMayBlock("FencedRedisStore.read()");
        List<?> fields;
        try {
            fields = (List<?>) commands.apply(new String[] {"HMGET", key, VALUE_FIELD, FENCE_FIELD})
                    .get(BLOCKING_BOUND_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedlockException("interrupted while reading fenced redis key " + key, e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw new RedlockException("reading fenced redis key " + key + " failed: " + Failures.describe(e), Failures.unwrap(e));
        }
        Object fence = fields.get(1);
        if (fence == null) return Optional.empty();
        Object value = fields.get(0);
        return Optional.of(new FencedValue(value == null ? "" : value.toString(), fence(key, fence)));
    }

    /** A stored fence as a long; a {@link RedlockException} naming the key when it is not one this class wrote. */
    private static long fence(String key, Object stored) {
        try {
            return Long.parseLong(String.valueOf(stored));
        } catch (NumberFormatException e) {
            throw new RedlockException("fenced redis key " + key + " has a malformed fence: " + stored
                    + " (not a decimal in 1.." + Long.MAX_VALUE + ")", e);
        }
    }

    private CompletableFuture<Object> evalWrite(String key, String value, String token, String mode) {
        CompletableFuture<Object> bySha;
        try {
            bySha = commands.apply(new String[] {"EVALSHA", WRITE_SHA, "1", key, value, token, mode});
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return bySha.exceptionallyCompose(e -> Scripts.isNoScript(e)
                ? commands.apply(new String[] {"EVAL", WRITE_SCRIPT, "1", key, value, token, mode})
                : CompletableFuture.failedFuture(e));
    }

    /** Closes the connection this store opened, or hands {@code close()} to the adapter's transport. Idempotent. */
    @Override
    public void close() {
        closer.run();
    }

    private static FencedWriteResult join(CompletableFuture<FencedWriteResult> f, String key) {
        try {
            return f.get(BLOCKING_BOUND_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new RedlockException("fenced write to redis key " + key + " got no answer within " + BLOCKING_BOUND_MS
                    + " ms; it may or may not have been applied", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedlockException("interrupted during a fenced write to redis key " + key
                    + "; it may or may not have been applied", e);
        } catch (ExecutionException e) {
            Throwable c = Failures.unwrap(e.getCause());
            if (c instanceof RuntimeException r) throw r;
            throw new RedlockException(Failures.describe(c), c);
        }
    }

    @Override
    public String toString() {
        return "FencedRedisStore[" + name + (strict ? ", strict" : "") + "]";
    }
}
