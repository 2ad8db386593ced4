package dev.redlock.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every fenced store guarantees, run against each ({@link FencedRedisStore}, {@link FencedTable}): a write
 * applies when its token is at least the stored fence (strictly greater in strict mode) and is otherwise rejected
 * with the stored fence, nothing changed; concurrent writers end with the highest token's value. Each store's own
 * behaviour (scripts, SQL, insert paths) is tested beside it.
 */
abstract class FencedStoreContract {

    /** One fenced target (a key, a row) of the store under test, as one writer reaches it. */
    interface Target {
        FencedWriteResult write(String value, long token) throws Exception;

        /** The same write through the store in strict mode. */
        FencedWriteResult writeStrict(String value, long token) throws Exception;

        /** The stored value and fence. */
        FencedValue read() throws Exception;

        /** The twin: the same write without the fence check (a naive store). */
        void writeUnfenced(String value, long token) throws Exception;

        /** Whether the store's default mode is strict. */
        boolean strictByDefault();
    }

    /** The target {@code id} for this thread (stores that need a connection per thread open one here). */
    abstract Target target(String id) throws Exception;

    /** A token generator for the concurrent run: a store may add tokens where its arithmetic is fragile. */
    long randomToken(Random random) {
        return 1 + random.nextInt(1_000_000);
    }

    @Test
    void higherTokensAreApplied() throws Exception {
        Target t = target("job-1");
        FencedWriteResult r = t.write("A", 3);
        assertEquals(FencedWriteResult.Status.APPLIED, r.status());
        assertTrue(r.isApplied());
        assertEquals(OptionalLong.of(3), r.currentFence());
        assertEquals(r, r.orThrow());
        t.write("B", 4).orThrow();
        t.write("C", 100).orThrow();
        assertEquals(new FencedValue("C", 100), t.read());
    }

    @Test
    void staleTokenIsRejectedWithTheStoredFenceAndNothingChanges() throws Exception {
        Target t = target("job-1");
        t.write("B", 10).orThrow();

        FencedWriteResult r = t.write("A", 9);

        assertEquals(FencedWriteResult.Status.REJECTED_STALE, r.status());
        assertTrue(r.isStale());
        assertFalse(r.isApplied());
        assertEquals(OptionalLong.of(10), r.currentFence());
        assertEquals(new FencedValue("B", 10), t.read());
        StaleTokenException e = assertThrows(StaleTokenException.class, r::orThrow);
        assertEquals(9, e.token());
        assertEquals(10, e.currentFence());
        assertTrue(e.getMessage().contains("stale fencing token 9"), e.getMessage());
    }

    /** Twin of {@link #staleTokenIsRejectedWithTheStoredFenceAndNothingChanges}: the same writes without the check. */
    @Test
    void twinWithoutTheFenceCheckTheStaleWriteGetsThrough() throws Exception {
        Target t = target("job-1");
        t.write("B", 10).orThrow();

        t.writeUnfenced("A", 9);

        assertEquals(new FencedValue("A", 9), t.read(),
                "without the check the superseded writer's value wins and the fence goes backwards");
    }

    /** Fails if the default comparison is tightened to "strictly greater": a lease writes many times with one token. */
    @Test
    void equalTokenIsAcceptedByDefaultSoOneLeaseWritesManyTimes() throws Exception {
        Target t = target("job-1");
        assertFalse(t.strictByDefault());
        t.write("first", 10).orThrow();

        FencedWriteResult r = t.write("second with the same token", 10);

        assertEquals(FencedWriteResult.Status.APPLIED, r.status());
        assertEquals(OptionalLong.of(10), r.currentFence());
        assertEquals(new FencedValue("second with the same token", 10), t.read());
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, t.write("older", 9).status());
    }

    /** Fails if strict mode is loosened to "at least": one write per token. */
    @Test
    void strictModeRejectsAnEqualToken() throws Exception {
        Target t = target("job-1");
        t.writeStrict("first", 10).orThrow();

        FencedWriteResult r = t.writeStrict("second", 10);

        assertEquals(FencedWriteResult.Status.REJECTED_STALE, r.status());
        assertEquals(OptionalLong.of(10), r.currentFence());
        assertEquals(new FencedValue("first", 10), t.read());
        StaleTokenException e = assertThrows(StaleTokenException.class, r::orThrow);
        assertTrue(e.getMessage().contains("strict mode"), e.getMessage());
        assertEquals(FencedWriteResult.Status.APPLIED, t.writeStrict("third", 11).status());
    }

    @Test
    void concurrentWritersWithRandomTokensEndWithTheHighestTokensValue() throws Exception {
        Random random = new Random(Seeds.seed(getClass().getSimpleName() + ".concurrentWriters"));
        int writers = 4;
        int writesEach = 150;
        List<long[]> tokens = new ArrayList<>();
        long max = 0;
        for (int w = 0; w < writers; w++) {
            long[] t = new long[writesEach];
            for (int i = 0; i < writesEach; i++) {
                t[i] = randomToken(random);
                max = Math.max(max, t[i]);
            }
            tokens.add(t);
        }
        target("race");   // a store whose targets must exist has it now
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Integer>> applied = new ArrayList<>();
            for (long[] t : tokens) {
                applied.add(pool.submit(() -> {
                    Target mine = target("race");
                    go.await();
                    int n = 0;
                    for (long token : t) {
                        FencedWriteResult r = mine.write("v" + token, token);
                        if (r.isApplied()) n++;
                        else assertTrue(r.currentFence().getAsLong() >= token, r.toString());
                    }
                    return n;
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : applied) total += f.get(60, TimeUnit.SECONDS);
            assertEquals(new FencedValue("v" + max, max), target("race").read());
            assertTrue(total >= 1 && total < writers * writesEach, "applied " + total);
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }
}
