package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.RedlockHealth.Status;
import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Redlock.checkHealth on real nodes: reachability, the quorum, and preflight verdicts per node, read-only. */
class HealthCheckIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void everyNodeUpIsAQuorumAndNamesItsAddress() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            RedlockHealth health = redlock.checkHealth(TIMEOUT);
            assertTrue(health.quorumReachable(), health.toString());
            assertEquals(2, health.quorum());
            assertEquals(Preflight.STRICT, health.preflight());
            assertEquals(3, health.up());
            for (int i = 0; i < 3; i++) {
                RedlockHealth.Node n = health.nodes().get(i);
                assertEquals("127.0.0.1:" + REDIS.node(i).port(), n.address());
                assertEquals(Status.UP, n.status(), n.toString());
                assertEquals("", n.error());
            }
        }
    }

    @Test
    void aPausedNodeIsDownAndTwoPausedLoseTheQuorum() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            REDIS.node(0).pause();
            try {
                RedlockHealth one = redlock.checkHealth(Duration.ofMillis(300));
                assertEquals(Status.DOWN, one.nodes().get(0).status(), one.toString());
                assertTrue(one.nodes().get(0).error().contains("no answer within 300ms"), one.toString());
                assertTrue(one.quorumReachable(), "2 of 3 still answer: " + one);
                REDIS.node(1).pause();
                RedlockHealth two = redlock.checkHealth(Duration.ofMillis(300));
                assertFalse(two.quorumReachable(), two.toString());
                assertEquals(1, two.up());
            } finally {
                REDIS.node(0).resume();
                REDIS.node(1).resume();
            }
            assertTrue(redlock.checkHealth(TIMEOUT).quorumReachable(), "healthy again once the nodes answer");
        }
    }

    /** What preflight cannot see (a setting changed on a node that keeps answering) shows in the health check. */
    @Test
    void anEvictingNodeIsRefusedUnderStrictAndOnlyReportedUnderWarn() {
        try (Redlock strict = Redlock.create(REDIS.config().build());
             Redlock warn = Redlock.create(REDIS.config().preflight(Preflight.WARN).build())) {
            REDIS.node(1).command("CONFIG", "SET", "maxmemory", "100mb");
            REDIS.node(1).command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            try {
                RedlockHealth s = strict.checkHealth(TIMEOUT);
                RedlockHealth.Node refused = s.nodes().get(1);
                assertEquals(Status.REFUSED, refused.status(), s.toString());
                assertTrue(refused.findings().stream().anyMatch(f -> f.contains("maxmemory-policy=allkeys-lru")), s.toString());
                assertTrue(s.quorumReachable(), "2 of 3 pass: " + s);
                RedlockHealth w = warn.checkHealth(TIMEOUT);
                assertEquals(Status.UP, w.nodes().get(1).status(), w.toString());
                assertTrue(w.nodes().get(1).findings().stream().anyMatch(f -> f.contains("allkeys-lru")), w.toString());
                // read-only: the strict client still acquires through the other two
                strict.acquire("health", Duration.ofSeconds(2)).release();
            } finally {
                REDIS.node(1).command("CONFIG", "SET", "maxmemory-policy", "noeviction");
                REDIS.node(1).command("CONFIG", "SET", "maxmemory", "0");
            }
        }
    }

    @Test
    void aBadTimeoutIsRejectedAndAClosedRedlockRefuses() {
        Redlock redlock = Redlock.create(REDIS.config().build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> redlock.checkHealth(Duration.ZERO));
        assertTrue(e.getMessage().startsWith("timeout must be > 0"), e.getMessage());
        redlock.close();
        assertThrows(IllegalStateException.class, () -> redlock.checkHealth(TIMEOUT));
    }
}
