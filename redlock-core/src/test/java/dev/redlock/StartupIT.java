package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Ports;
import dev.redlock.testkit.Sleep;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Start-up with unreachable nodes: a minority is tolerated; without a majority, acquire fails in bounded time. */
class StartupIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static String deadUri() throws IOException {
        return "redis://127.0.0.1:" + Ports.free();   // nothing listens there: connection refused
    }

    @Test
    void minorityUnreachableAtStartup() throws IOException {
        List<String> nodes = new ArrayList<>(REDIS.uris());
        nodes.add(deadUri());
        nodes.add(deadUri());
        try (Redlock redlock = Redlock.create(REDIS.config().nodes(nodes).build())) {
            try (Lease lease = redlock.acquire("up", Duration.ofSeconds(5))) {
                assertTrue(lease.isValid());
            }
        }
    }

    @Test
    void noReachableMajorityFailsInBoundedTimeWithOutcomes() throws IOException {
        List<String> nodes = new ArrayList<>(REDIS.uris().subList(0, 2));
        nodes.add(deadUri());
        nodes.add(deadUri());
        nodes.add(deadUri());
        RedlockConfig cfg = REDIS.config().nodes(nodes).nodeTimeout(Duration.ofMillis(200)).retryCount(2).build();
        try (Redlock redlock = Redlock.create(cfg)) {
            long t0 = System.nanoTime();
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("down", Duration.ofSeconds(5)));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // bound: 3 rounds x (200 ms timeout) + 2 x (20 +- 10 ms) delay, plus slack for a loaded machine
            assertTrue(ms < 10_000, "took " + ms + " ms");
            assertEquals(5, e.outcomes().size());
            assertEquals(2, e.count(NodeOutcome.Kind.GRANTED), e.getMessage());
            assertEquals(3, e.count(NodeOutcome.Kind.ERROR) + e.count(NodeOutcome.Kind.TIMEOUT), e.getMessage());
            for (NodeOutcome o : e.outcomes().subList(2, 5)) assertTrue(!o.detail().isEmpty(), o.toString());
        }
    }

    @Test
    void nodeComingUpLaterIsUsed() {
        Sleep.millis(1);
        REDIS.node(2).kill();
        try (Redlock redlock = Redlock.create(REDIS.config().quorum(3).retryCount(0).build())) {
            assertThrows(LockUnavailableException.class, () -> redlock.acquire("later", Duration.ofSeconds(5)));
            REDIS.node(2).restart();
            Lease lease = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (lease == null && System.nanoTime() < deadline) {
                lease = redlock.tryAcquire("later", Duration.ofSeconds(5)).orElse(null);
                if (lease == null) Sleep.millis(100);
            }
            assertTrue(lease != null && lease.isValid(), "the restarted node was never used again");
            lease.release();
        }
    }
}
