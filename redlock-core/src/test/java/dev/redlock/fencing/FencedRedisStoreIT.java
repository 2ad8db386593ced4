package dev.redlock.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.RedlockException;
import dev.redlock.testkit.RedisCluster;
import dev.redlock.testkit.RedisNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link FencedRedisStore} against one real redis-server. */
class FencedRedisStoreIT {
    private static RedisCluster cluster;
    private static RedisNode node;
    private static FencedRedisStore store;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start(1);
        node = cluster.node(0);
        store = FencedRedisStore.connect(node.uri());
    }

    @AfterAll
    static void stop() {
        try {
            if (store != null) store.close();
        } finally {
            if (cluster != null) cluster.close();
        }
    }

    @AfterEach
    void flush() {
        node.command("FLUSHALL");
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
    void higherTokensAreApplied() {
        store.write("job:1", "A", 3).orThrow();
        store.write("job:1", "B", 4).orThrow();
        store.write("job:1", "C", 100).orThrow();
        assertEquals(Optional.of(new FencedValue("C", 100)), store.read("job:1"));
    }

    @Test
    void staleTokenIsRejectedWithTheStoredFence() {
        store.write("job:1", "B", 10).orThrow();

        FencedWriteResult r = store.write("job:1", "A", 9);

        assertEquals(FencedWriteResult.Status.REJECTED_STALE, r.status());
        assertEquals(OptionalLong.of(10), r.currentFence());
        assertEquals(Optional.of(new FencedValue("B", 10)), store.read("job:1"));
        StaleTokenException e = assertThrows(StaleTokenException.class, r::orThrow);
        assertEquals(9, e.token());
        assertEquals(10, e.currentFence());
    }

    /** Fails if the default comparison is tightened to "strictly greater": a lease writes many times with one token. */
    @Test
    void equalTokenIsAcceptedByDefaultSoOneLeaseWritesManyTimes() {
        assertFalse(store.isStrict());
        store.write("job:1", "first", 10).orThrow();
        FencedWriteResult r = store.write("job:1", "second", 10);
        assertEquals(FencedWriteResult.Status.APPLIED, r.status());
        assertEquals(Optional.of(new FencedValue("second", 10)), store.read("job:1"));
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, store.write("job:1", "older", 9).status());
    }

    /** Fails if strict mode is loosened to "at least": one write per token. */
    @Test
    void strictModeRejectsAnEqualToken() {
        FencedRedisStore strict = store.strict();
        assertTrue(strict.isStrict());
        strict.write("job:1", "first", 10).orThrow();
        FencedWriteResult r = strict.write("job:1", "second", 10);
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, r.status());
        assertEquals(OptionalLong.of(10), r.currentFence());
        assertEquals(Optional.of(new FencedValue("first", 10)), store.read("job:1"));
        assertEquals(FencedWriteResult.Status.APPLIED, strict.write("job:1", "third", 11).status());
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
    }

    @Test
    void callMistakesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> store.write("k", "v", 0));
        assertThrows(IllegalArgumentException.class, () -> store.write("k", "v", -5));
        assertThrows(NullPointerException.class, () -> store.write("k", null, 5));
        assertEquals("0", node.command("EXISTS", "k"));
    }

    /** Twin of {@link #staleTokenIsRejectedWithTheStoredFence}: the same writes through a script without the check. */
    @Test
    void twinWithoutTheFenceCheckTheStaleWriteGetsThrough() {
        store.write("job:1", "B", 10).orThrow();

        node.command("EVAL", "redis.call('HSET', KEYS[1], 'value', ARGV[1], 'fence', ARGV[2]) return 1",
                "1", "job:1", "A", "9");

        assertEquals(Optional.of(new FencedValue("A", 9)), store.read("job:1"),
                "without the check the superseded writer's value wins and the fence goes backwards");
    }

    @Test
    void concurrentWritersWithRandomTokensEndWithTheHighestTokensValue() throws Exception {
        long seed = System.nanoTime();
        System.out.println("concurrentWritersWithRandomTokens seed=" + seed);
        int writers = 4;
        int writesEach = 200;
        Random random = new Random(seed);
        List<long[]> tokens = new ArrayList<>();
        long max = 0;
        for (int w = 0; w < writers; w++) {
            long[] t = new long[writesEach];
            for (int i = 0; i < writesEach; i++) {
                // mix small tokens and tokens above 2^53 (where Lua doubles would lose precision)
                t[i] = random.nextBoolean() ? 1 + random.nextInt(1_000_000) : (1L << 53) + random.nextInt(1_000_000);
                max = Math.max(max, t[i]);
            }
            tokens.add(t);
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Integer>> applied = new ArrayList<>();
            for (long[] t : tokens) {
                applied.add(pool.submit(() -> {
                    go.await();
                    int n = 0;
                    for (long token : t) {
                        FencedWriteResult r = store.write("race", "v" + token, token);
                        if (r.isApplied()) n++;
                        else assertTrue(r.currentFence().getAsLong() >= token, r.toString());
                    }
                    return n;
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : applied) total += f.get(60, TimeUnit.SECONDS);
            assertEquals(Optional.of(new FencedValue("v" + max, max)), store.read("race"));
            assertTrue(total >= 1 && total < writers * writesEach, "applied " + total);
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }
}
