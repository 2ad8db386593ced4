package dev.redlock.examples.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.examples.support.ExampleNodes;
import dev.redlock.examples.worker.FencedJobWorkerExample.Outcome;
import dev.redlock.testkit.RedisNodesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Seed 001's experiment, on 5 real redis-server processes (flushed before each test; no lock keys may be left after
 * it) and a real H2 database.
 */
class FencedJobWorkerExampleIT {
    @RegisterExtension
    static final RedisNodesExtension REDIS = new RedisNodesExtension(5);

    private static RedlockConfig config;

    @BeforeAll
    static void configure() {
        config = FencedJobWorkerExample.config(ExampleNodes.of(REDIS.cluster()));
    }

    @BeforeEach
    void markFresh() {
        try (Redlock admin = Redlock.create(config)) {
            assertEquals(5, admin.markNodesFresh());
        }
    }

    @Test
    void theStalledWorkersLateWriteIsRejectedByTheFence() throws Exception {
        Outcome o = FencedJobWorkerExample.run(config, new FencedJobWorkerExample.FencedStore());

        assertTrue(o.aValidBeforeStall(), "A checked a valid lease before stalling");
        assertFalse(o.aValidAtWrite(), "A's 200 ms lease expired during its 500 ms stall");
        assertTrue(o.tokenB() > o.tokenA(), o.toString());
        assertTrue(o.bAcquiredAfterMs() >= 150, "B could only get the lease once A's expired: " + o);
        assertTrue(o.bWriteApplied());
        assertFalse(o.aWriteApplied(), "the fence rejects A's stale token");
        assertEquals(Outcome.RESULT_B, o.storedResult());
        assertEquals(o.tokenB(), o.storedFence());
        assertTrue(o.correct());
    }

    /** Twin: the same run with {@code AND fence < ?} removed from the store's UPDATE. */
    @Test
    void twinWithoutTheFenceCheckTheStaleWriteWinsAndTheResultIsWrong() throws Exception {
        Outcome o = FencedJobWorkerExample.run(config, new FencedJobWorkerExample.NaiveStore());

        assertFalse(o.aValidAtWrite());
        assertTrue(o.tokenB() > o.tokenA(), o.toString());
        assertTrue(o.bWriteApplied());
        assertTrue(o.aWriteApplied(), "nothing stops A's stale write");
        assertEquals(Outcome.RESULT_A, o.storedResult(), "the superseded worker's result overwrote B's");
        assertEquals(o.tokenA(), o.storedFence(), "and the fence went backwards");
        assertFalse(o.correct());
    }
}
