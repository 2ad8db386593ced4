package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two of five nodes SIGSTOPped: acquisition must decide on the first three answers, not wait for the stalled
 * nodes' timeout. nodeTimeout is 10 s here, so a round that waited for them would take 10 s; the assertion
 * allows 5 s, far above a decided round's few milliseconds, so it does not depend on machine speed.
 */
class StalledMinorityIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    @Test
    void stalledMinorityDoesNotDelayAcquire() {
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofSeconds(10)).build())) {
            redlock.markNodesFresh();   // tokens count from 0 (consecutive), not from the nodes' clocks
            redlock.acquire("warm", Duration.ofSeconds(5)).release();   // connections open before the stall
            REDIS.node(1).pause();
            REDIS.node(3).pause();
            try {
                for (int i = 0; i < 5; i++) {
                    long t0 = System.nanoTime();
                    Lease lease = redlock.acquire("stalled", Duration.ofSeconds(20));
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    assertTrue(ms < 5_000, "acquire took " + ms + " ms: it waited for the stalled nodes");
                    assertTrue(lease.isValid());
                    assertEquals(i + 1, lease.fencingToken() - firstTokenBase(lease, i));
                    lease.release();
                }
            } finally {
                REDIS.node(1).resume();
                REDIS.node(3).resume();
            }
            // the stalled nodes execute our SETs after waking up; those late grants must be released
            assertEquals(List.of(), REDIS.awaitNoLockKeys());
        }
    }

    private long base = -1;

    private long firstTokenBase(Lease lease, int i) {
        if (i == 0) base = lease.fencingToken() - 1;
        return base;
    }
}
