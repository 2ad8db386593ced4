package dev.redlock.spring.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Redlock;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * Spring Integration's {@link LockRegistryLeaderInitiator} on {@link RedlockLockRegistry}: three instances (each its
 * own {@link Redlock}, registry and initiator, as three processes), exactly one leader at any sampled moment, failover
 * when the leader stops, and failover when the leader loses its Redis nodes (its ACL user is switched off and its
 * connections killed on every node, while the others keep theirs). Each term's fencing token, read in
 * {@code onGranted}, is greater than the previous term's.
 */
class LeaderInitiatorIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final String ROLE = "cron-leader";

    /** One term: who, and the fencing token of its lease. */
    record Term(String instance, long token) {}

    final ConcurrentLinkedQueue<Term> terms = new ConcurrentLinkedQueue<>();

    /** One instance: its ACL user on every node, Redlock, registry and initiator. */
    final class Instance implements AutoCloseable {
        final String id;
        final Redlock redlock;
        final RedlockLockRegistry registry;
        final LockRegistryLeaderInitiator initiator;

        Instance(String id) {
            this.id = id;
            for (RedisNode n : REDIS.cluster().nodes()) {
                n.command("ACL", "SETUSER", id, "on", ">pw-" + id, "~*", "&*", "+@all");
            }
            List<String> uris = REDIS.uris().stream().map(u -> u.replace("redis://", "redis://" + id + ":pw-" + id + "@")).toList();
            this.redlock = Redlock.create(REDIS.config().nodes(uris).nodeTimeout(Duration.ofMillis(200)).build());
            this.registry = new RedlockLockRegistry(redlock, Duration.ofSeconds(2));
            this.initiator = new LockRegistryLeaderInitiator(registry, new DefaultCandidate(id, ROLE) {
                @Override
                public void onGranted(Context ctx) {
                    terms.add(new Term(id, registry.obtain(ROLE).fencingToken()));   // on the thread holding the lock
                }
            });
            initiator.setHeartBeatMillis(200);
            initiator.setBusyWaitMillis(50);
            initiator.setApplicationEventPublisher(event -> { });
        }

        boolean isLeader() {
            return initiator.getContext().isLeader();
        }

        /** Cuts this instance off from every node: its user is switched off and its connections are closed. */
        void loseNodes() {
            for (RedisNode n : REDIS.cluster().nodes()) {
                n.command("ACL", "SETUSER", id, "off");
                n.command("CLIENT", "KILL", "USER", id);
            }
        }

        @Override
        public void close() {
            initiator.stop();
            redlock.close();
            for (RedisNode n : REDIS.cluster().nodes()) n.command("ACL", "DELUSER", id);
        }
    }

    @Test
    void oneLeaderAtATimeWithFailoverOnStopAndOnLostNodes() throws Exception {
        List<Instance> instances = new ArrayList<>();
        AtomicInteger mostLeadersAtOnce = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                int leaders = 0;
                for (Instance i : List.copyOf(instances)) if (i.isLeader()) leaders++;
                mostLeadersAtOnce.accumulateAndGet(leaders, Math::max);
                Sleep.millis(5);
            }
        });
        try {
            for (String id : List.of("inst-a", "inst-b", "inst-c")) {
                Instance i = new Instance(id);
                instances.add(i);
                i.initiator.start();
            }
            sampler.start();
            Instance first = awaitLeader(instances, null);
            Sleep.millis(600);                                   // a few heartbeats: the leader stays leader
            assertTrue(first.isLeader(), "re-entrant heartbeats keep the leadership");

            first.initiator.stop();                                  // failover when the leader stops
            Instance second = awaitLeader(instances, first);
            assertFalse(first.isLeader());

            second.loseNodes();                                      // failover when the leader loses its nodes
            awaitLeader(instances, second);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (second.isLeader() && System.nanoTime() < deadline) Sleep.millis(20);
            assertFalse(second.isLeader(), "the cut-off leader is revoked");
        } finally {
            sampling.set(false);
            sampler.join(5_000);
            for (Instance i : instances) i.close();
        }
        assertEquals(1, mostLeadersAtOnce.get(), "two leaders at once");
        List<Term> inOrder = List.copyOf(terms);
        assertTrue(inOrder.size() >= 3, "three terms: " + inOrder);
        for (int k = 1; k < inOrder.size(); k++) {
            assertTrue(inOrder.get(k).token() > inOrder.get(k - 1).token(), "tokens increase from term to term: " + inOrder);
        }
    }

    /** The one leader other than {@code not}, once there is exactly one; fails after 30 s (a loaded machine is slow). */
    private static Instance awaitLeader(List<Instance> instances, Instance not) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<Instance> leaders = instances.stream().filter(Instance::isLeader).toList();
            if (leaders.size() == 1 && leaders.get(0) != not) return leaders.get(0);
            Sleep.millis(10);
        }
        throw new AssertionError("no single new leader within 30 s: " + instances.stream().map(i -> i.id + "=" + i.isLeader() + "/" + i.initiator.isRunning()).toList());
    }
}
