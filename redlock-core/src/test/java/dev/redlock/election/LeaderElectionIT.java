package dev.redlock.election;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.ClockedRedlocks;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisCluster;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.RedisNodesExtension;
import dev.redlock.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Leader election against 5 real redis-server processes. Every instance has its own {@link Redlock} (as separate
 * processes would). Short TTLs keep it fast; faults (SIGSTOP, SIGKILL) are always healed in {@code finally}.
 */
class LeaderElectionIT {
    static final Duration NODE_TIMEOUT = Duration.ofMillis(100);
    static final Duration TTL = Duration.ofMillis(600);
    static final Duration RENEW = Duration.ofMillis(200);

    /** After each test (once every election is closed): no lock keys left; a crashed leader's expire by TTL. */
    @RegisterExtension
    static final RedisNodesExtension REDIS = new RedisNodesExtension(5);

    private static RedisCluster cluster;
    private static RedlockConfig config;
    private final List<Redlock> redlocks = new ArrayList<>();
    private final List<LeaderElection> elections = new ArrayList<>();
    private final ElectionHistory history = new ElectionHistory();
    private final ElectionClock clock = new ElectionClock();

    @BeforeAll
    static void configure() {
        cluster = REDIS.cluster();
        config = RedlockConfig.builder().nodes(cluster.uris()).nodeTimeout(NODE_TIMEOUT)
                .restartQuarantine(Duration.ZERO)          // brand-new nodes: no amnesia quarantine in tests
                .build();
    }

    /** The extension heals the nodes after this (even when it throws). */
    @AfterEach
    void cleanUp() {
        clock.thaw();                   // crashed elections go on, find their leases gone, and close
        elections.forEach(LeaderElection::close);
        redlocks.forEach(Redlock::close);
    }

    /** A new election with its own Redlock, recorded in {@link #history}; not started. */
    private LeaderElection election(String resource, String id, Duration ttl, Duration renew) {
        return election(config, resource, id, ttl, renew);
    }

    private LeaderElection election(RedlockConfig cfg, String resource, String id, Duration ttl, Duration renew) {
        Redlock r = ClockedRedlocks.create(cfg, clock);
        redlocks.add(r);
        return election(r, resource, id, ttl, renew);
    }

    private LeaderElection election(Redlock r, String resource, String id, Duration ttl, Duration renew) {
        LeaderElection e = history.attach(LeaderElection.builder(r, resource).instanceId(id).leaseTtl(ttl).renewInterval(renew));
        elections.add(e);
        return e;
    }

    private List<LeaderElection> startElections(String resource, int n, Duration ttl, Duration renew) {
        return startElections(config, resource, n, ttl, renew);
    }

    private List<LeaderElection> startElections(RedlockConfig cfg, String resource, int n, Duration ttl, Duration renew) {
        List<LeaderElection> list = new ArrayList<>();
        for (int i = 0; i < n; i++) list.add(election(cfg, resource, "i" + i, ttl, renew));
        list.forEach(LeaderElection::start);
        return list;
    }

    private static List<LeaderElection> leaders(List<LeaderElection> list) {
        return list.stream().filter(LeaderElection::isLeader).toList();
    }

    /** Process death: {@code e}'s threads stop where they are; no release, no more renewals, no timer. */
    private void crash(LeaderElection e) {
        clock.freeze(e);
        history.crashed(e);
    }

    private static LeaderElection awaitLeader(List<LeaderElection> list, Duration within) {
        AtomicReferenceHolder holder = new AtomicReferenceHolder();
        await().atMost(within).pollInterval(Duration.ofMillis(5)).until(() -> {
            List<LeaderElection> l = leaders(list);
            if (l.size() == 1) holder.value = l.get(0);
            return l.size() == 1;
        });
        return holder.value;
    }

    record Observation(String instance, long before, long after) {}

    private static final class AtomicReferenceHolder {
        volatile LeaderElection value;
    }

    /** Start time (state change) of the term with this epoch. */
    private long electedNanos(long epoch) {
        return history.events(ElectionHistory.Source.STATE, ElectionHistory.Kind.ELECTED).stream()
                .filter(e -> e.epoch() == epoch).mapToLong(ElectionHistory.Event::nanos).findFirst().orElseThrow();
    }

    @Test
    void exactlyOneLeaderAmongFiveInstances() {
        // a roomier node timeout: this test asserts that, without faults, the leader keeps its term, and a busy
        // shared machine must not turn one slow reply into a lost renewal
        RedlockConfig roomy = config.toBuilder().nodeTimeout(Duration.ofMillis(250)).build();
        List<LeaderElection> five = startElections(roomy, "single", 5, Duration.ofSeconds(1), Duration.ofMillis(250));
        LeaderElection leader = awaitLeader(five, Duration.ofSeconds(5));
        long epoch = leader.currentEpoch().orElseThrow();

        // watch for a while (several renewals): never more than one leader, followers have no epoch
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
        int samples = 0;
        while (System.nanoTime() < until) {
            List<LeaderElection> now = leaders(five);
            assertTrue(now.size() <= 1, "two leaders at once: " + now);
            for (LeaderElection e : five) {
                if (!now.contains(e)) assertEquals(OptionalLong.empty(), e.currentEpoch(), e + " is a follower");
            }
            samples++;
            Thread.yield();
        }
        assertTrue(samples > 100);
        assertEquals(List.of(leader), leaders(five), "no faults: the leader stays");
        assertEquals(epoch, leader.currentEpoch().orElseThrow(), "renewals keep the term's epoch");
        List<ElectionHistory.Event> elected = history.events(ElectionHistory.Source.CALLBACK, ElectionHistory.Kind.ELECTED);
        assertEquals(1, elected.size(), "one term, one onElected: " + elected);
        assertEquals(leader.instanceId(), elected.get(0).instance());
        assertEquals(epoch, elected.get(0).epoch());

        leader.close();
        assertEquals(List.of(leader.instanceId()), history.events(ElectionHistory.Source.CALLBACK,
                ElectionHistory.Kind.REVOKED).stream().map(ElectionHistory.Event::instance).toList(),
                "close() returns after onRevoked ran");
        five.forEach(LeaderElection::close);
        history.check();
    }

    @Test
    void failoverAfterTheLeaderDiesWithoutReleasing() {
        List<LeaderElection> three = startElections("failover", 3, TTL, RENEW);
        LeaderElection dead = awaitLeader(three, Duration.ofSeconds(5));
        long oldEpoch = dead.currentEpoch().orElseThrow();
        long crashedAt = System.nanoTime();
        crash(dead);
        List<LeaderElection> alive = three.stream().filter(e -> e != dead).toList();
        LeaderElection next = awaitLeader(alive, TTL.plus(RENEW).plusSeconds(2));
        long deadLeaseDeadline = history.leaseDeadline(dead);     // no renewal reported after the crash
        assertNotSame(dead, next);
        long newEpoch = next.currentEpoch().orElseThrow();
        assertTrue(newEpoch > oldEpoch, "new epoch " + newEpoch + " must exceed " + oldEpoch);
        long failover = electedNanos(newEpoch) - crashedAt;
        long bound = TTL.plus(RENEW).plusMillis(150).toNanos();      // 150 ms for one round on a busy machine
        System.out.printf("failover after crash: %.1f ms (leaseTtl=%d ms, renewInterval=%d ms)%n", failover / 1e6,
                TTL.toMillis(), RENEW.toMillis());
        assertTrue(failover <= bound, "failover took " + failover / 1e6 + " ms, more than TTL + renewInterval");
        assertTrue(electedNanos(newEpoch) >= deadLeaseDeadline,
                "the new leader was elected before the dead leader's lease validity ended");
        history.check();
    }

    @Test
    void gracefulHandoverOnCloseDoesNotWaitForTheTtl() {
        Duration ttl = Duration.ofSeconds(2);
        List<LeaderElection> three = startElections("handover", 3, ttl, RENEW);
        LeaderElection first = awaitLeader(three, Duration.ofSeconds(5));
        long epoch = first.currentEpoch().orElseThrow();
        long closedAt = System.nanoTime();
        first.close();
        long closeTook = System.nanoTime() - closedAt;
        assertFalse(first.isLeader());
        assertEquals(1, history.events(ElectionHistory.Source.CALLBACK, ElectionHistory.Kind.REVOKED).size(),
                "onRevoked ran before close() returned");

        LeaderElection next = awaitLeader(three, Duration.ofSeconds(1));
        long newEpoch = next.currentEpoch().orElseThrow();
        long handover = electedNanos(newEpoch) - closedAt;
        System.out.printf("handover after close(): %.1f ms (close took %.1f ms; leaseTtl=%d ms, renewInterval=%d ms)%n",
                handover / 1e6, closeTook / 1e6, ttl.toMillis(), RENEW.toMillis());
        assertTrue(newEpoch > epoch);
        assertTrue(handover < ttl.toNanos() / 4, "handover took " + handover / 1e6 + " ms: should be about one renewInterval");
        history.check();
    }

    /** Closing the Redlock under a running election releases the lease: the leader must stop leading at once. */
    @Test
    void closingTheRedlockUnderALeaderEndsItsLeadershipAtOnce() {
        List<LeaderElection> two = startElections("redlock-closed", 2, TTL, RENEW);
        LeaderElection leader = awaitLeader(two, Duration.ofSeconds(5));
        long epoch = leader.currentEpoch().orElseThrow();
        redlocks.get(two.indexOf(leader)).close();
        assertFalse(leader.isLeader(), "the lease was released with the Redlock");
        assertEquals(OptionalLong.empty(), leader.currentEpoch());
        LeaderElection next = awaitLeader(two, Duration.ofSeconds(2));
        assertNotSame(leader, next);
        assertTrue(next.currentEpoch().orElseThrow() > epoch);
        await().atMost(Duration.ofSeconds(2)).until(() -> history.events(ElectionHistory.Source.CALLBACK,
                ElectionHistory.Kind.REVOKED).stream().anyMatch(e -> e.epoch() == epoch));
        // (no history.check(): here the recorded end of the first term is its late onRevoked, not the release)
    }

    /**
     * The revocation timer, not the renewal, ends the term when the campaign thread is stuck (a stuck call, a long
     * pause of that thread): leadership must still end before the lease's validity does.
     */
    @Test
    void stuckRenewalsAreRevokedByTheTimerBeforeTheValidityEnds() {
        List<LeaderElection> two = startElections("stuck", 2, TTL, RENEW);
        LeaderElection leader = awaitLeader(two, Duration.ofSeconds(5));
        long oldEpoch = leader.currentEpoch().orElseThrow();
        ConcurrentLinkedQueue<long[]> revokes = new ConcurrentLinkedQueue<>();
        leader.onRevoked(t -> revokes.add(new long[] {System.nanoTime(), history.leaseDeadline(leader)}));
        try {
            clock.stallCampaign(leader);
            await().atMost(TTL.plusSeconds(1)).pollInterval(Duration.ofMillis(5)).until(() -> !revokes.isEmpty());
            long[] r = revokes.peek();
            System.out.printf("stuck campaign: revoked %.1f ms before the lease's validity ended%n", (r[1] - r[0]) / 1e6);
            assertTrue(r[0] <= r[1], "onRevoked ran " + (r[0] - r[1]) / 1e6 + " ms after the lease's validity ended");
            assertFalse(leader.isLeader());
            LeaderElection next = awaitLeader(two, Duration.ofSeconds(2));      // the revoke released the lease
            assertNotSame(leader, next);
            assertTrue(next.currentEpoch().orElseThrow() > oldEpoch);
        } finally {
            clock.thaw();
        }
        history.check();
    }

    @ParameterizedTest(name = "{0} 3 of 5 nodes")
    @ValueSource(strings = {"pause", "kill"})
    void leaderCutFromAMajorityIsRevokedBeforeItsValidityEnds(String fault) {
        List<LeaderElection> two = startElections("cut-" + fault, 2, TTL, RENEW);
        LeaderElection leader = awaitLeader(two, Duration.ofSeconds(5));
        long oldEpoch = leader.currentEpoch().orElseThrow();
        ConcurrentLinkedQueue<long[]> revokes = new ConcurrentLinkedQueue<>();   // {callback nanos, lease deadline}
        AtomicBoolean leaderInCallback = new AtomicBoolean(true);
        leader.onRevoked(t -> {
            long now = System.nanoTime();
            leaderInCallback.set(leader.isLeader());
            revokes.add(new long[] {now, history.leaseDeadline(leader)});
        });
        List<RedisNode> cut = new ArrayList<>(cluster.nodes());
        Collections.shuffle(cut, new Random(fault.hashCode()));
        cut = cut.subList(0, 3);
        try {
            for (RedisNode n : cut) {
                if (fault.equals("pause")) n.pause();
                else n.kill();
            }
            await().atMost(TTL.plusSeconds(1)).pollInterval(Duration.ofMillis(5)).until(() -> !revokes.isEmpty());
            long[] r = revokes.peek();
            System.out.printf("%s: revoked %.1f ms before the lease's validity ended%n", fault, (r[1] - r[0]) / 1e6);
            assertTrue(r[0] <= r[1], "onRevoked ran " + (r[0] - r[1]) / 1e6 + " ms after the lease's validity ended");
            assertFalse(leaderInCallback.get(), "isLeader() is false by the time onRevoked runs");
            assertFalse(leader.isLeader());
            // without a quorum nobody can lead: watch for longer than a TTL
            long until = System.nanoTime() + TTL.plus(RENEW).toNanos();
            while (System.nanoTime() < until) {
                assertEquals(List.of(), leaders(two), "no quorum, no leader");
                Thread.yield();
            }
        } finally {
            cluster.heal();
        }
        LeaderElection again = awaitLeader(two, Duration.ofSeconds(5));
        assertTrue(again.currentEpoch().orElseThrow() > oldEpoch, "a new term after healing has a greater epoch");
        history.check();
    }

    /**
     * Churn (graceful closes, crashes, minority and majority SIGSTOPs) under a seeded random schedule; then the
     * history must show no two overlapping terms and strictly increasing epochs. A watcher also samples
     * {@code isLeader()} of every election for two at once.
     */
    @Test
    void noTwoLeadersUnderChurn() throws InterruptedException {
        long seed = Seeds.seed("noTwoLeadersUnderChurn");
        Random rnd = new Random(seed);
        List<LeaderElection> live = Collections.synchronizedList(new ArrayList<>(startElections("churn", 5, TTL, RENEW)));
        List<Redlock> owners = new ArrayList<>(redlocks);   // index i: the Redlock of slot i
        // the public view: every isLeader() == true seen by a watcher must fall inside a recorded term of that
        // instance (so the recorded history is what callers saw, and the overlap check below covers them too)
        ConcurrentLinkedQueue<Observation> seen = new ConcurrentLinkedQueue<>();
        AtomicInteger sweepsWithTwo = new AtomicInteger();
        AtomicLong sweeps = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread watcher = new Thread(() -> {
            while (!stop.get()) {
                List<LeaderElection> snapshot;
                synchronized (live) { snapshot = List.copyOf(live); }
                int leadersSeen = 0;
                for (LeaderElection e : snapshot) {
                    long before = System.nanoTime();
                    boolean leader = e.isLeader();
                    long after = System.nanoTime();
                    if (leader) {
                        seen.add(new Observation(e.instanceId(), before, after));
                        leadersSeen++;
                    }
                }
                if (leadersSeen > 1) sweepsWithTwo.incrementAndGet();   // a sweep is not atomic: informative only
                sweeps.incrementAndGet();
                LockSupport.parkNanos(200_000);
            }
        }, "leader-watcher");
        watcher.setDaemon(true);
        watcher.start();
        int replaced = 0;
        List<String> actions = new ArrayList<>();
        try {
            for (int step = 0; step < 10; step++) {
                awaitLeader(live, Duration.ofSeconds(5));
                int slot = -1;
                for (int i = 0; i < live.size(); i++) if (live.get(i).isLeader()) slot = i;
                int action = rnd.nextInt(4);
                switch (action) {
                    case 0, 1 -> {                                  // the leader goes away: gracefully or by crash
                        if (slot < 0) break;
                        LeaderElection old = live.get(slot);
                        if (action == 0) old.close();
                        else crash(old);
                        actions.add((action == 0 ? "close " : "crash ") + old.instanceId());
                        LeaderElection fresh = election(owners.get(slot), "churn", "i" + slot + "." + (++replaced), TTL, RENEW);
                        fresh.start();
                        live.set(slot, fresh);
                    }
                    case 2, 3 -> {                                  // a minority (1-2) or a majority (3) of nodes stops
                        int k = action == 2 ? 1 + rnd.nextInt(2) : 3;
                        List<RedisNode> nodes = new ArrayList<>(cluster.nodes());
                        Collections.shuffle(nodes, rnd);
                        actions.add("pause " + k + " nodes");
                        try {
                            nodes.subList(0, k).forEach(RedisNode::pause);
                            Thread.sleep(200 + rnd.nextInt(400));
                        } finally {
                            cluster.heal();
                        }
                    }
                    default -> throw new AssertionError();
                }
                Thread.sleep(100 + rnd.nextInt(300));
            }
            awaitLeader(live, Duration.ofSeconds(5));
        } finally {
            stop.set(true);
            watcher.join(2000);
            cluster.heal();
        }
        live.forEach(LeaderElection::close);
        System.out.println("actions: " + actions);
        System.out.print(history.describe());
        System.out.printf("watcher: %d sweeps, %d observations of a leader, %d sweeps saw two (non-atomic sweeps)%n",
                sweeps.get(), seen.size(), sweepsWithTwo.get());
        List<ElectionHistory.Interval> terms = history.intervals();
        for (Observation o : seen) {
            assertTrue(terms.stream().anyMatch(t -> t.instance().equals(o.instance()) && t.start() <= o.after()
                            && t.end() >= o.before()),
                    "isLeader() was true on " + o + " outside every recorded term:\n" + history.describe());
        }
        assertTrue(terms.size() >= 3, "churn should have produced several terms:\n" + history.describe());
        history.check();
    }
}
