package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.RedlockListener.AcquireMode;
import dev.redlock.RedlockListener.AcquireOutcome;
import dev.redlock.RedlockListener.ExtendTrigger;
import dev.redlock.RedlockListener.LossReason;
import dev.redlock.RedlockListener.Operation;
import dev.redlock.election.LeaderElection;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every event of the listener SPI, on real nodes: what it reports, once, and that a bad listener breaks nothing. */
class RedlockListenerIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Records every event as one line. */
    static final class Recorder implements RedlockListener {
        final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
        final AtomicInteger active = new AtomicInteger();

        @Override
        public void onAcquire(String resource, AcquireMode mode, AcquireOutcome outcome, int rounds, long nanos) {
            events.add("acquire " + resource + " " + mode + " " + outcome + " rounds=" + rounds);
        }

        @Override
        public void onNodeRequest(int node, String address, Operation operation, NodeOutcome.Kind result, long nanos) {
            events.add("node " + node + " " + address + " " + operation + " " + result);
        }

        @Override
        public void onLeaseGranted(String resource, long validityNanos) {
            active.incrementAndGet();
            events.add("granted " + resource + (validityNanos > 0 ? " valid" : " NOT valid"));
        }

        @Override
        public void onExtend(String resource, ExtendTrigger trigger, boolean extended, long nanos, long validityNanos) {
            events.add("extend " + resource + " " + trigger + " " + extended + (validityNanos > 0 ? " valid" : " 0"));
        }

        @Override
        public void onLeaseReleased(String resource) {
            active.decrementAndGet();
            events.add("released " + resource);
        }

        @Override
        public void onLeaseLost(String resource, LossReason reason) {
            active.decrementAndGet();
            events.add("lost " + resource + " " + reason);
        }

        @Override
        public void onWatchdogLateness(String resource, long lateNanos) {
            events.add("watchdog " + resource + (lateNanos >= 0 ? " late>=0" : " negative"));
        }

        @Override
        public void onLeadershipChange(String election, String instanceId, boolean leader, long epoch) {
            events.add("leader " + election + " " + instanceId + " " + leader + (epoch > 0 ? " epoch" : " no-epoch"));
        }

        long count(String line) {
            return events.stream().filter(line::equals).count();
        }

        boolean has(String line) {
            return events.contains(line);
        }
    }

    private static String address(int node) {
        return "127.0.0.1:" + REDIS.node(node).port();
    }

    @Test
    void eachAcquireModeAndOutcomeIsReportedWithItsRounds() throws Exception {
        Recorder r = new Recorder();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            redlock.addListener(r);
            Lease held = redlock.acquire("modes", Duration.ofSeconds(5));
            assertTrue(redlock.tryAcquire("modes", Duration.ofSeconds(5)).isEmpty());
            CompletableFuture<Lease> waiting = redlock.acquireAsync("modes", Duration.ofSeconds(5));
            waiting.cancel(false);                                  // while its rounds find the lock held
            held.release();
            redlock.acquireAsync("modes", Duration.ofSeconds(5)).get().release();
            // a lock held elsewhere for every round: UNAVAILABLE after retryCount + 1 rounds
            try (Redlock other = Redlock.create(REDIS.config().build());
                 Lease elsewhere = other.acquire("modes", Duration.ofSeconds(5))) {
                assertThrows(LockUnavailableException.class, () -> redlock.acquire("modes", Duration.ofSeconds(5)));
                assertTrue(elsewhere.isValid());
            }
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, r.count("acquire modes BLOCKING ACQUIRED rounds=1"), r.events.toString());
                assertEquals(1, r.count("acquire modes TRY UNAVAILABLE rounds=1"), r.events.toString());
                assertEquals(1, r.events.stream().filter(e -> e.startsWith("acquire modes ASYNC CANCELLED")).count(),
                        r.events.toString());
                assertEquals(1, r.count("acquire modes ASYNC ACQUIRED rounds=1"), r.events.toString());
                assertEquals(1, r.count("acquire modes BLOCKING UNAVAILABLE rounds=4"), r.events.toString());
                assertEquals(2, r.count("granted modes valid"));
                assertEquals(2, r.count("released modes"));
                assertEquals(0, r.active.get(), "every granted lease was released once");
            });
        }
    }

    @Test
    void nodeRequestsNameTheNodeTheOperationAndTheResult() {
        Recorder r = new Recorder();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            redlock.addListener(r);
            try (Lease lease = redlock.acquire("nodes", Duration.ofSeconds(5))) {
                lease.extend(Duration.ofSeconds(5));
            }
            await().atMost(WAIT).untilAsserted(() -> {
                for (int i = 0; i < 3; i++) {
                    for (Operation op : List.of(Operation.ACQUIRE, Operation.EXTEND, Operation.RELEASE)) {
                        assertEquals(1, r.count("node " + i + " " + address(i) + " " + op + " GRANTED"), r.events.toString());
                    }
                }
            });
        }
    }

    /** A paused node's request times out, and its answer after the resume is not counted a second time. */
    @Test
    void aPausedNodeTimesOutAndItsLateAnswerIsNotReportedAgain() {
        Recorder r = new Recorder();
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(200)).build())) {
            redlock.addListener(r);
            REDIS.node(2).pause();
            Lease lease;
            try {
                lease = redlock.acquire("paused", Duration.ofSeconds(5));
                await().atMost(WAIT).until(() -> r.has("node 2 " + address(2) + " ACQUIRE TIMEOUT"));
            } finally {
                REDIS.node(2).resume();
            }
            lease.release();
            // the late grant is read (and released) once the node answers; it is not a second ACQUIRE event
            await().atMost(WAIT).until(() -> r.events.stream().filter(e -> e.startsWith("node 2 ")).count() >= 2);
            Sleep.millis(300);
            assertEquals(1, r.events.stream().filter(e -> e.startsWith("node 2 " + address(2) + " ACQUIRE")).count(),
                    r.events.toString());
        }
    }

    @Test
    void extensionsCarryTheirTriggerAndTheWatchdogItsLateness() throws Exception {
        Recorder r = new Recorder();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            redlock.addListener(r);
            try (Lease lease = redlock.acquire("manual", Duration.ofSeconds(5))) {
                lease.extend(Duration.ofSeconds(5));
            }
            redlock.withLock("dog", Duration.ofMillis(300), lease -> {
                Sleep.millis(450);                                 // at least one renewal at ttl/3
                return null;
            });
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, r.count("extend manual MANUAL true valid"), r.events.toString());
                assertTrue(r.has("extend dog WATCHDOG true valid"), r.events.toString());
                assertTrue(r.has("watchdog dog late>=0"), r.events.toString());
                assertEquals(0, r.active.get());
            });
        }
    }

    /** Each loss is reported once, with its reason, and a lost lease that is then released is not released again. */
    @Test
    void lossesAreReportedOnceWithTheirReason() throws Exception {
        Recorder r = new Recorder();
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            redlock.addListener(r);
            Lease expiring = redlock.acquire("expires", Duration.ofMillis(150));
            await().atMost(WAIT).until(() -> r.has("lost expires EXPIRED"));
            expiring.release();                                        // after the loss: no release event
            Lease cut = redlock.acquire("cut", Duration.ofSeconds(5));
            REDIS.whilePaused(() -> assertThrows(LeaseLostException.class, () -> cut.extend(Duration.ofSeconds(5))), 0, 1);
            cut.release();
            assertThrows(LeaseLostException.class, () -> redlock.withLock("dog-cut", Duration.ofMillis(400), lease -> {
                REDIS.whilePaused(() -> await().atMost(WAIT).until(() -> !lease.isValid()), 0, 1);
                return null;
            }));
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, r.count("lost expires EXPIRED"), r.events.toString());
                assertEquals(1, r.count("lost cut EXTEND_FAILED"), r.events.toString());
                assertEquals(1, r.count("extend cut MANUAL false 0"), r.events.toString());
                assertEquals(1, r.count("lost dog-cut WATCHDOG_FAILED"), r.events.toString());
                assertFalse(r.events.stream().anyMatch(e -> e.startsWith("released")), r.events.toString());
                assertEquals(0, r.active.get(), "a lost lease counts as ended once");
            });
        }
    }

    @Test
    void leadershipChangesOfAnElectionOnTheRedlockAreReported() {
        Recorder r = new Recorder();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            redlock.addListener(r);
            LeaderElection election = LeaderElection.builder(redlock, "leader-events").instanceId("pod-a")
                    .leaseTtl(Duration.ofSeconds(3)).renewInterval(Duration.ofMillis(200)).build();
            election.start();
            await().atMost(WAIT).until(election::isLeader);
            election.close();
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, r.count("leader leader-events pod-a true epoch"), r.events.toString());
                assertEquals(1, r.count("leader leader-events pod-a false epoch"), r.events.toString());
            });
        }
    }

    /** Listeners run on the library's threads: one that throws is logged, and locking and the others go on. */
    @Test
    void aThrowingListenerBreaksNeitherLockingNorTheOtherListeners() throws Exception {
        Recorder r = new Recorder();
        RedlockListener throwing = new RedlockListener() {
            @Override
            public void onNodeRequest(int node, String address, Operation operation, NodeOutcome.Kind result, long nanos) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onLeaseGranted(String resource, long validityNanos) {
                throw new IllegalStateException("listener bug");
            }
        };
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            redlock.addListener(throwing);
            redlock.addListener(r);
            // bounded: a listener that broke the I/O thread's vote counting would leave the acquisition hanging
            try (Lease lease = redlock.acquireAsync("robust", Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS)) {
                assertTrue(lease.isValid());
            }
            await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(1, r.count("granted robust valid"));
                assertEquals(3, r.events.stream().filter(e -> e.endsWith("ACQUIRE GRANTED")).count());
            });
            assertTrue(redlock.removeListener(r));
            assertFalse(redlock.removeListener(r));
            int before = r.events.size();
            redlock.acquire("robust", Duration.ofSeconds(5)).release();
            Sleep.millis(200);
            assertEquals(before, r.events.size(), "a removed listener hears nothing");
        }
    }
}
