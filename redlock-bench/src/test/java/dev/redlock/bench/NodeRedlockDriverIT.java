package dev.redlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.JsonObject;
import dev.redlock.testkit.RedisCluster;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The node-redlock driver's protocol on real redis-server processes, briefly: installs and starts it, locks and
 * releases through it, runs each timed loop once, and checks that its overlap check can see a broken lock.
 * Skipped when node or npm is not on the PATH (the bench then skips node-redlock too).
 */
class NodeRedlockDriverIT {
    private static RedisCluster cluster;
    private static NodeDriver driver;

    @BeforeAll
    static void start() throws Exception {
        String why = NodeDriver.unavailable();
        assumeTrue(why == null, () -> "node-redlock driver not tested: " + why);
        cluster = RedisCluster.start(3);
        driver = NodeDriver.start(Path.of("target", "node-redlock"));
    }

    @AfterAll
    static void stop() {
        try {
            if (driver != null) driver.close();
        } finally {
            if (cluster != null) cluster.close();
        }
    }

    private static NodeRedlock system(List<String> uris) {
        return new NodeRedlock(driver, SideBySide.NODE, uris, 100, 0);
    }

    @Test
    void reportsTheVersionsItRuns() {
        assertEquals("v5.0.0-beta.2", driver.versions().get("redlock"));
        assertTrue(driver.versions().get("ioredis").startsWith("5."), driver.versions().toString());
    }

    @Test
    void aHeldLockExcludesAnotherInstanceUntilReleased() throws Exception {
        NodeRedlock s = system(cluster.uris());
        try (LockClient a = s.newClient(); LockClient b = s.newClient()) {
            LockClient.Held held = a.acquire("proto:excl", 5_000, 0);
            assertNotNull(held);
            assertEquals(3, cluster.lockKeys("proto:").size(), "the key is on every node");
            assertNull(b.acquire("proto:excl", 5_000, 0), "granted while held");
            a.release(held);
            assertTrue(cluster.lockKeys("proto:").isEmpty(), "release left keys behind");
            LockClient.Held next = b.acquire("proto:excl", 5_000, 0);
            assertNotNull(next, "not granted after the release");
            b.release(next);
        }
        assertTrue(cluster.lockKeys("proto:").isEmpty());
    }

    @Test
    void timedLoopsReturnTheirSamples() throws Exception {
        NodeRedlock s = system(cluster.uris());
        try (LockClient c = s.newClient()) {
            Latencies acq = new Latencies(16);
            Latencies rel = new Latencies(16);
            assertEquals(0, c.uncontended("loop:w1", 5_000, 20, acq, rel));
            assertEquals(20, acq.count());
            assertEquals(20, rel.count());
            assertTrue(acq.percentileMs(50) > 0);
        }
        try (Callers callers = s.callers(4, "loop:w6:", 5_000)) {
            Callers.Batch b = callers.run(200);
            assertTrue(b.pairs().count() > 0, "no pair in 200 ms");
            assertEquals(b.pairs().count(), b.acquires().count());
            assertEquals(0, b.failures());
            // timed in the node process: its setTimeout may fire up to 1 ms early (199.6 ms seen for 200 ms)
            assertTrue(b.elapsedNanos() >= 198_000_000L, "elapsed " + b.elapsedNanos());
        }
        try (Contenders contenders = new NodeRedlock(driver, SideBySide.NODE, cluster.uris(), 100, 10_000)
                .contenders(2, "loop:w2", 5_000)) {
            Contenders.Batch b = contenders.run(300);
            assertTrue(b.perClient()[0] + b.perClient()[1] > 0, "no acquisition in 300 ms");
            assertEquals(0, b.overlaps());
        }
        assertTrue(cluster.lockKeys("loop:").isEmpty(), "keys left: " + cluster.lockKeys("loop:"));
    }

    @Test
    void overlapCheckSeesTwoHoldersOfDisjointQuorums() throws Exception {
        // one instance locks on node 0 only, the other on node 1 only: both hold "split" at once
        String a = "split-a", b = "split-b";
        Map<String, Object> common = Map.of("nodeTimeoutMs", 100, "retryCount", 10_000, "retryDelayMs", 5,
                "retryJitterMs", 1);
        driver.call("open", merge(common, Map.of("instance", a, "nodes", List.of(cluster.uris().get(0)))));
        driver.call("open", merge(common, Map.of("instance", b, "nodes", List.of(cluster.uris().get(1)))));
        try {
            JsonObject r = driver.call("contended", Map.of("instances", List.of(a, b), "resource", "split:r",
                    "ttlMs", 5_000, "ms", 200));
            assertTrue(r.get("overlaps").getAsLong() > 0, "two holders at once, no overlap counted: " + r);
        } finally {
            driver.call("close", Map.of("instance", a));
            driver.call("close", Map.of("instance", b));
        }
        assertTrue(cluster.lockKeys("split:").isEmpty());
    }

    @Test
    void errorsNameTheRequest() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> driver.call("nonsense", Map.of()));
        assertTrue(e.getMessage().contains("unknown op 'nonsense'"), e.getMessage());
        e = assertThrows(IllegalStateException.class,
                () -> driver.call("uncontended", Map.of("instance", "never-opened", "resource", "x", "ttlMs", 1, "n", 1)));
        assertTrue(e.getMessage().contains("no instance 'never-opened'"), e.getMessage());
        assertTrue(driver.isAlive(), "an error must not end the driver");
    }

    @Test
    void closingEndsTheProcess() throws Exception {
        NodeDriver other = NodeDriver.start(Path.of("target", "node-redlock"));
        assertTrue(other.isAlive());
        other.close();
        assertFalse(other.isAlive(), "driver still running after close()");
    }

    private static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> m = new LinkedHashMap<>(a);
        m.putAll(b);
        return m;
    }
}
