package dev.redlock.fencing;

import dev.redlock.RedlockException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Fenced values in Redis: {@link #write} stores a value under a key only if the presented fencing token is at least
 * the token the key was last written with, so one lease (or one leader's term) can write as often as it needs while a
 * superseded holder, whose token is smaller, is refused. {@link #strict()} gives a store that also refuses an equal
 * token (one write per token). Check and write are one Lua script, so they are atomic on the Redis server. Each key is
 * a hash with the fields {@code value} and {@code fence}, owned by this class.
 *
 * <pre>{@code
 * FencedRedisStore store = FencedRedisStore.create(redisson);
 * try (Lease lease = redlock.acquire("report", ttl)) {
 *     store.write("report:latest", render(), lease.fencingToken()).orThrow();
 * }
 * }</pre>
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
 * <p>The client's own codec is not used: values are strings ({@link StringCodec}). Works with any
 * {@link RedissonClient}, including one node of a {@code Redlock}'s deployment or an unrelated server; the client is
 * not shut down by this class. Thread-safe.
 */
public final class FencedRedisStore {
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
              if not string.match(cur, '^[1-9]%d*$') or #cur > 19 then
                return redis.error_reply('fenced key ' .. KEYS[1] .. ' has a malformed fence: ' .. cur)
              end
              local c = compare(ARGV[2], cur)
              if c < 0 or (c == 0 and ARGV[3] == 'strict') then return {0, cur} end
            end
            redis.call('HSET', KEYS[1], 'value', ARGV[1], 'fence', ARGV[2])
            return {1, ARGV[2]}
            """;
    private static final String WRITE_SHA = sha1(WRITE_SCRIPT);

    private final RedissonClient client;
    private final RScript script;
    private final boolean strict;

    private FencedRedisStore(RedissonClient client, boolean strict) {
        this.client = client;
        this.script = client.getScript(StringCodec.INSTANCE);
        this.strict = strict;
    }

    /** A store over {@code client} that accepts a token equal to the stored fence; keys are used exactly as given. */
    public static FencedRedisStore create(RedissonClient client) {
        return new FencedRedisStore(Objects.requireNonNull(client, "client"), false);
    }

    /**
     * The same store in strict mode: a token must be strictly greater than the stored fence, so each token writes a
     * key at most once. Both modes share the keys; a key's fence means the same in either.
     */
    public FencedRedisStore strict() {
        return strict ? this : new FencedRedisStore(client, true);
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
     * @throws RedlockException         when Redis failed or did not answer; the write may or may not have happened
     */
    public FencedWriteResult write(String key, String value, long token) {
        return join(writeAsync(key, value, token), key);
    }

    /**
     * Asynchronous {@link #write}: completes with the result, or exceptionally with a {@link RedlockException}
     * (outcome unknown). Completes on a Redisson I/O thread: do not block in its callbacks.
     *
     * @throws IllegalArgumentException when {@code token <= 0}
     */
    public CompletableFuture<FencedWriteResult> writeAsync(String key, String value, long token) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (token <= 0) throw new IllegalArgumentException("token must be > 0 (every lease token is), got " + token);
        String target = "redis key " + key;
        List<Object> keys = List.of(key);
        String tokenText = Long.toString(token);
        return evalWrite(keys, value, tokenText, strict ? "strict" : "same-or-newer")
                .handle((reply, error) -> {
                    if (error != null) {
                        throw new CompletionException(new RedlockException("fenced write to " + target + " with token "
                                + token + " failed; it may or may not have been applied: " + describe(error), unwrap(error)));
                    }
                    long status = Long.parseLong(String.valueOf(reply.get(0)));
                    long fence = Long.parseLong(String.valueOf(reply.get(1)));
                    return status == 1 ? FencedWriteResult.applied(target, token)
                            : FencedWriteResult.rejected(target, token, fence);
                });
    }

    /**
     * The stored value and its fence, or empty when the key does not exist.
     *
     * @throws RedlockException when Redis failed or did not answer
     */
    public Optional<FencedValue> read(String key) {
        Objects.requireNonNull(key, "key");
        Map<String, String> fields;
        try {
            fields = client.<String, String>getMap(key, StringCodec.INSTANCE).getAll(Set.of(VALUE_FIELD, FENCE_FIELD));
        } catch (RuntimeException e) {
            throw new RedlockException("reading fenced redis key " + key + " failed: " + describe(e), e);
        }
        String fence = fields.get(FENCE_FIELD);
        if (fence == null) return Optional.empty();
        return Optional.of(new FencedValue(fields.getOrDefault(VALUE_FIELD, ""), Long.parseLong(fence)));
    }

    private CompletableFuture<List<Object>> evalWrite(List<Object> keys, String value, String token, String mode) {
        CompletableFuture<List<Object>> bySha;
        try {
            bySha = script.<List<Object>>evalShaAsync(RScript.Mode.READ_WRITE, WRITE_SHA, RScript.ReturnType.LIST,
                    keys, value, token, mode).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return bySha.exceptionallyCompose(e -> isNoScript(e)
                ? script.<List<Object>>evalAsync(RScript.Mode.READ_WRITE, WRITE_SCRIPT, RScript.ReturnType.LIST,
                        keys, value, token, mode).toCompletableFuture()
                : CompletableFuture.failedFuture(e));
    }

    private static FencedWriteResult join(CompletableFuture<FencedWriteResult> f, String key) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedlockException("interrupted during a fenced write to redis key " + key
                    + "; it may or may not have been applied", e);
        } catch (ExecutionException e) {
            Throwable c = unwrap(e.getCause());
            if (c instanceof RuntimeException r) throw r;
            throw new RedlockException(describe(c), c);
        }
    }

    private static boolean isNoScript(Throwable e) {
        for (Throwable t = unwrap(e); t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("NOSCRIPT")) return true;
        }
        return false;
    }

    private static Throwable unwrap(Throwable e) {
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static String describe(Throwable e) {
        Throwable t = unwrap(e);
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private static String sha1(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "FencedRedisStore[" + client + (strict ? ", strict" : "") + "]";
    }
}
