package dev.redlock.micrometer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.election.LeaderElection;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each meter of RedlockMetrics moves as it should, on real nodes: outcomes, nodes, leases, losses, leadership. */
class RedlockMetricsIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private long timerCount(String name, String... tags) {
        Timer t = Search.in(registry).name(name).tags(tags).timer();
        return t == null ? 0 : t.count();
    }

    private double counter(String name, String... tags) {
        Counter c = Search.in(registry).name(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    private double gauge(String name, String... tags) {
        return Search.in(registry).name(name).tags(tags).gauge().value();
    }

    private static String node(int i) {
        return "127.0.0.1:" + REDIS.node(i).port();
    }

    @Test
    void acquisitionsAreTimedByOutcomeAndModeWithTheirRounds() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            new RedlockMetrics(redlock).bindTo(registry);
            Lease held = redlock.acquire("orders", Duration.ofSeconds(5));
            await().atMost(WAIT).until(() -> gauge("redlock.lease.active") == 1);
            assertTrue(redlock.tryAcquire("orders", Duration.ofSeconds(5)).isEmpty());
            CompletableFuture<Lease> waiting = redlock.acquireAsync("orders", Duration.ofSeconds(5));
            waiting.cancel(false);
            try (Redlock other = Redlock.create(REDIS.config().build())) {
                held.release();
                try (Lease elsewhere = other.acquire("orders", Duration.ofSeconds(5))) {
                    assertThrows(LockUnavailableException.class, () -> redlock.acquire("orders", Duration.ofSeconds(5)));
                    assertTrue(elsewhere.isValid());
                }
            }
            redlock.acquireAsync("orders", Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS).release();
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, timerCount("redlock.acquire", "outcome", "acquired", "mode", "blocking"));
                assertEquals(1, timerCount("redlock.acquire", "outcome", "unavailable", "mode", "try"));
                assertEquals(1, timerCount("redlock.acquire", "outcome", "cancelled", "mode", "async"));
                assertEquals(1, timerCount("redlock.acquire", "outcome", "unavailable", "mode", "blocking"));
                assertEquals(1, timerCount("redlock.acquire", "outcome", "acquired", "mode", "async"));
                var rounds = registry.get("redlock.acquire.rounds").summary();
                assertEquals(5, rounds.count());
                assertEquals(4, rounds.max(), "the unavailable blocking acquire ran retryCount + 1 rounds");
                assertEquals(0, gauge("redlock.lease.active"));
                assertEquals(2, timerCount("redlock.lease.validity", "operation", "acquire"));
            });
            Timer validity = registry.get("redlock.lease.validity").tag("operation", "acquire").timer();
            assertTrue(validity.max(TimeUnit.MILLISECONDS) <= 5000, "validity left is at most the TTL");
        }
    }

    @Test
    void nodeRequestsAreTaggedByNodeOperationAndResultAndAPausedNodeTimesOut() {
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(200)).build())) {
            new RedlockMetrics(redlock).bindTo(registry);
            try (Lease lease = redlock.acquire("nodes", Duration.ofSeconds(5))) {
                lease.extend(Duration.ofSeconds(5));
                try (Redlock third = Redlock.create(REDIS.config().retryCount(0).build())) {
                    new RedlockMetrics(third).bindTo(registry);
                    assertTrue(third.tryAcquire("nodes", Duration.ofSeconds(5)).isEmpty());
                }
            }
            REDIS.node(2).pause();
            try {
                redlock.acquire("paused", Duration.ofSeconds(5)).release();
                await().atMost(WAIT).until(() ->
                        timerCount("redlock.node.requests", "node", node(2), "operation", "acquire", "result", "timeout") == 1);
            } finally {
                REDIS.node(2).resume();
            }
            await().atMost(WAIT).untilAsserted(() -> {
                for (int i = 0; i < 3; i++) {
                    assertEquals(i < 2 ? 2 : 1, timerCount("redlock.node.requests", "node", node(i), "operation", "acquire",
                            "result", "granted"), "node " + i);
                    assertEquals(1, timerCount("redlock.node.requests", "node", node(i), "operation", "extend", "result", "granted"));
                    assertEquals(1, timerCount("redlock.node.requests", "node", node(i), "operation", "acquire", "result", "refused"));
                }
                assertTrue(timerCount("redlock.node.requests", "node", node(0), "operation", "release", "result", "granted") >= 2);
            });
        }
    }

    @Test
    void extensionsAreTimedByTriggerAndTheWatchdogsLatenessIsRecorded() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            new RedlockMetrics(redlock).bindTo(registry);
            try (Lease lease = redlock.acquire("report", Duration.ofSeconds(5))) {
                lease.extend(Duration.ofSeconds(5));
            }
            redlock.withLock("job", Duration.ofMillis(300), lease -> {
                Sleep.millis(450);                            // renewed at ttl/3
                return null;
            });
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, timerCount("redlock.extend", "outcome", "extended", "trigger", "manual"));
                assertTrue(timerCount("redlock.extend", "outcome", "extended", "trigger", "watchdog") >= 1);
                assertTrue(timerCount("redlock.watchdog.lateness") >= 1);
                assertTrue(timerCount("redlock.lease.validity", "operation", "extend") >= 2);
                assertEquals(0, gauge("redlock.lease.active"));
            });
        }
    }

    @Test
    void lostLeasesAreCountedByReasonAndLeaveTheActiveGauge() {
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            new RedlockMetrics(redlock).bindTo(registry);
            assertEquals(0, counter("redlock.leases.lost", "reason", "expired"), "registered before the first loss");
            Lease expiring = redlock.acquire("expires", Duration.ofMillis(150));
            await().atMost(WAIT).until(() -> counter("redlock.leases.lost", "reason", "expired") == 1);
            expiring.release();
            Lease cut = redlock.acquire("cut", Duration.ofSeconds(5));
            REDIS.whilePaused(() -> assertThrows(LeaseLostException.class, () -> cut.extend(Duration.ofSeconds(5))), 0, 1);
            cut.release();
            assertThrows(LeaseLostException.class, () -> redlock.withLock("dog", Duration.ofMillis(400), lease -> {
                REDIS.whilePaused(() -> await().atMost(WAIT).until(() -> !lease.isValid()), 0, 1);
                return null;
            }));
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, counter("redlock.leases.lost", "reason", "expired"));
                assertEquals(1, counter("redlock.leases.lost", "reason", "extend_failed"));
                assertEquals(1, counter("redlock.leases.lost", "reason", "watchdog_failed"));
                assertEquals(1, timerCount("redlock.extend", "outcome", "failed", "trigger", "manual"));
                assertTrue(timerCount("redlock.extend", "outcome", "failed", "trigger", "watchdog") >= 1);
                assertEquals(0, gauge("redlock.lease.active"));
            });
            System.out.println("meters after lost leases:\n" + registry.getMetersAsString());
        }
    }

    /** Two processes (two Redlocks, two registries): the leader's gauge follows the term across a failover. */
    @Test
    void theLeaderGaugeAndChangesFollowAFailover() {
        SimpleMeterRegistry registryB = new SimpleMeterRegistry();
        try (Redlock a = Redlock.create(REDIS.config().build()); Redlock b = Redlock.create(REDIS.config().build())) {
            new RedlockMetrics(a).bindTo(registry);
            new RedlockMetrics(b).bindTo(registryB);
            LeaderElection electionA = election(a, "pod-a");
            electionA.start();
            await().atMost(WAIT).until(electionA::isLeader);
            LeaderElection electionB = election(b, "pod-b");
            electionB.start();
            assertEquals(1, gauge("redlock.leader", "election", "cron"));
            assertEquals(1, counter("redlock.leader.changes", "election", "cron"));
            electionA.close();
            await().atMost(WAIT).until(electionB::isLeader);
            electionB.close();
            assertEquals(0, gauge("redlock.leader", "election", "cron"));
            assertEquals(2, counter("redlock.leader.changes", "election", "cron"), "elected and revoked");
            assertEquals(0, registryB.get("redlock.leader").tag("election", "cron").gauge().value());
            assertEquals(2, registryB.get("redlock.leader.changes").tag("election", "cron").counter().count());
        }
    }

    private static LeaderElection election(Redlock redlock, String id) {
        return LeaderElection.builder(redlock, "cron").instanceId(id).leaseTtl(Duration.ofSeconds(3))
                .renewInterval(Duration.ofMillis(200)).build();
    }

    @Test
    void aResourceTagMapsResourcesToTheApplicationsGroups() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            RedlockMetrics.builder(redlock).resourceTag(r -> r.substring(0, r.indexOf(':'))).build().bindTo(registry);
            redlock.acquire("invoice:1", Duration.ofSeconds(5)).release();
            redlock.acquire("invoice:2", Duration.ofSeconds(5)).release();
            redlock.acquire("job:7", Duration.ofSeconds(5)).release();
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(2, timerCount("redlock.acquire", "resource", "invoice", "outcome", "acquired"));
                assertEquals(1, timerCount("redlock.acquire", "resource", "job", "outcome", "acquired"));
            });
            assertNull(Search.in(registry).name("redlock.acquire").tag("resource", "invoice:1").timer(),
                    "never the resource name itself");
        }
    }

    @Test
    void closeStopsRecording() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            RedlockMetrics metrics = new RedlockMetrics(redlock);
            metrics.bindTo(registry);
            redlock.acquire("closing", Duration.ofSeconds(5)).release();
            await().atMost(WAIT).until(() -> timerCount("redlock.acquire", "outcome", "acquired") == 1);
            metrics.close();
            redlock.acquire("closing", Duration.ofSeconds(5)).release();
            Sleep.millis(200);
            assertEquals(1, timerCount("redlock.acquire", "outcome", "acquired"));
            System.out.println("meters after a run:\n" + registry.getMetersAsString());
        }
    }
}
