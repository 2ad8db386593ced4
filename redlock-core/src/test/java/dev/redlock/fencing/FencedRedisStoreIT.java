package dev.redlock.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.RedlockException;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.RedisNodesExtension;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link FencedRedisStore} against one real redis-server: the fenced-store contract, then the store's own behaviour. */
class FencedRedisStoreIT extends FencedStoreContract {
    @RegisterExtension
    static final RedisNodesExtension REDIS = new RedisNodesExtension(1);   // flushed before each test

    private static RedisNode node;
    private static FencedRedisStore store;

    @BeforeAll
    static void start() {
        node = REDIS.node(0);
        store = FencedRedisStore.connect(node.uri());
    }

    @AfterAll
    static void stop() {
        if (store != null) store.close();
    }

    @Override
    Target target(String key) {
        return new Target() {
            @Override
            public FencedWriteResult write(String value, long token) {
                return store.write(key, value, token);
            }

            @Override
            public FencedWriteResult writeStrict(String value, long token) {
                return store.strict().write(key, value, token);
            }

            @Override
            public FencedValue read() {
                return store.read(key).orElseThrow();
            }

            @Override
            public void writeUnfenced(String value, long token) {
                node.command("EVAL", "redis.call('HSET', KEYS[1], 'value', ARGV[1], 'fence', ARGV[2]) return 1",
                        "1", key, value, Long.toString(token));
            }

            @Override
            public boolean strictByDefault() {
                return store.isStrict();
            }
        };
    }

    /** Half the tokens above 2^53, where Lua doubles would lose precision. */
    @Override
    long randomToken(Random random) {
        return random.nextBoolean() ? 1 + random.nextInt(1_000_000) : (1L << 53) + random.nextInt(1_000_000);
    }

    @Test
    void firstWriteToAMissingKeyIsApplied() {
        assertEquals(Optional.empty(), store.read("job:1"));

        FencedWriteResult r = store.write("job:1", "A", 3);

        assertEquals(FencedWriteResult.Status.APPLIED, r.status());
        assertEquals(OptionalLong.of(3), r.currentFence());
        assertEquals("redis key job:1", r.target());
        assertEquals(Optional.of(new FencedValue("A", 3)), store.read("job:1"));
        assertEquals("-1", node.command("TTL", "job:1"), "a fenced key never expires");
    }

    @Test
    void tokensCompareExactlyBeyondTheDoublePrecisionOfLua() {
        long twoTo53 = 1L << 53;   // 9007199254740992: twoTo53 + 1 is the same Lua double
        store.write("k", "a", twoTo53).orThrow();
        FencedRedisStore strict = store.strict();
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("k", "b", twoTo53 + 1).status());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, strict.write("k", "c", twoTo53 + 1).status());
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("k", "c", twoTo53 + 1).status());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, store.write("k", "d", twoTo53).status());
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("k", "e", Long.MAX_VALUE - 1).status());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, strict.write("k", "f", Long.MAX_VALUE - 1).status());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, store.write("k", "f", Long.MAX_VALUE - 2).status());
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("k", "g", Long.MAX_VALUE).status());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, store.write("k", "h", 999_999_999_999_999_999L).status());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, strict.write("k", "i", Long.MAX_VALUE).status());
        assertEquals(Optional.of(new FencedValue("g", Long.MAX_VALUE)), store.read("k"));
        // shorter numbers with larger leading digits must not win a string comparison
        store.write("s", "x", 10).orThrow();
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, store.write("s", "y", 9).status());
    }

    @Test
    void asyncWriteCompletesWithTheSameResult() throws Exception {
        assertEquals(FencedWriteResult.Status.APPLIED, store.writeAsync("job:1", "A", 2).get(5, TimeUnit.SECONDS).status());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, store.writeAsync("job:1", "B", 1).get(5, TimeUnit.SECONDS).status());
    }

    @Test
    void worksAfterTheScriptCacheIsFlushed() {
        store.write("job:1", "A", 1).orThrow();
        node.command("SCRIPT", "FLUSH");
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("job:1", "B", 2).status());
    }

    @Test
    void aKeyItDoesNotOwnMakesTheWriteFailNotGuess() {
        node.command("SET", "plain", "x");
        RedlockException e = assertThrows(RedlockException.class, () -> store.write("plain", "v", 5));
        assertTrue(e.getMessage().contains("WRONGTYPE"), e.getMessage());
        assertEquals("x", node.command("GET", "plain"));

        node.command("HSET", "odd", "value", "x", "fence", "007");
        RedlockException m = assertThrows(RedlockException.class, () -> store.write("odd", "v", 5));
        assertTrue(m.getMessage().contains("malformed fence"), m.getMessage());
        assertEquals("007", node.command("HGET", "odd", "fence"));

        // 19 digits, above Long.MAX_VALUE: refused by the script and by read(), never a NumberFormatException
        node.command("HSET", "huge", "value", "x", "fence", "9999999999999999999");
        RedlockException h = assertThrows(RedlockException.class, () -> store.write("huge", "v", Long.MAX_VALUE));
        assertTrue(h.getMessage().contains("malformed fence"), h.getMessage());
        RedlockException r = assertThrows(RedlockException.class, () -> store.read("huge"));
        assertTrue(r.getMessage().contains("malformed fence"), r.getMessage());
        assertEquals("9999999999999999999", node.command("HGET", "huge", "fence"));
        node.command("HSET", "max", "value", "x", "fence", Long.toString(Long.MAX_VALUE));
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("max", "v", Long.MAX_VALUE).status(),
                "Long.MAX_VALUE itself is a fence this class writes");
    }

    @Test
    void callMistakesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> store.write("k", "v", 0));
        assertThrows(IllegalArgumentException.class, () -> store.write("k", "v", -5));
        assertThrows(NullPointerException.class, () -> store.write("k", null, 5));
        assertEquals("0", node.command("EXISTS", "k"));
    }

}
