package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The node list is part of the lock: two clients with different node lists must never both hold a resource. In a
 * rolling deploy from 5 nodes (quorum 3) to 7 (quorum 4) their quorums can be disjoint: {3, 4, 5} of the old list
 * and {1, 2, 6, 7} of the new one.
 */
class MembershipIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(7);

    private static final String P = RedisNodes.PREFIX;

    private static RedlockConfig.Builder oldList() {
        return REDIS.config().nodes(REDIS.uris().subList(0, 5)).retryCount(0);
    }

    private static RedlockConfig.Builder newList() {
        return REDIS.config().nodes(REDIS.uris()).retryCount(0);
    }

    /** Holds nodes 0 and 1 with someone else's key while {@code old} acquires, so it holds on nodes 2, 3 and 4. */
    private static Lease holdOnTheLastThreeOldNodes(Redlock old, String resource) {
        for (int i = 0; i < 2; i++) REDIS.node(i).command("SET", P + resource, "foreign", "PX", "60000");
        try {
            return old.acquire(resource, Duration.ofSeconds(20));
        } finally {
            for (int i = 0; i < 2; i++) REDIS.node(i).command("DEL", P + resource);
        }
    }

    @Test
    void aClientWithAnotherNodeListIsRefusedWhileTheOldOneHolds() {
        try (Redlock old = Redlock.create(oldList().build()); Redlock grown = Redlock.create(newList().build())) {
            grown.markNodesFresh();
            Lease held = holdOnTheLastThreeOldNodes(old, "job");
            try {
                // nodes 1, 2, 6, 7 are free, but 1 and 2 served the old list: they refuse the new one
                MembershipConflictException e = assertThrows(MembershipConflictException.class,
                        () -> grown.tryAcquire("job", Duration.ofSeconds(20)).ifPresent(Lease::release));
                assertTrue(e.thisConfiguration().contains("7 nodes (quorum 4)"), e.getMessage());
                assertTrue(e.otherConfiguration().contains("5 nodes (quorum 3)"), e.getMessage());
                assertTrue(e.getMessage().contains("previousNodes") && e.getMessage().contains("docs/deployments.md"),
                        e.getMessage());
                assertTrue(held.isValid());
            } finally {
                held.release();
            }
            // not retried: a configuration error, not contention
            assertEquals(1, assertThrows(MembershipConflictException.class,
                    () -> grown.acquire("other", Duration.ofSeconds(1))).attempts());
        }
    }

    @Test
    void theOldListIsRefusedWhereTheNewOneWasSeen() {
        try (Redlock old = Redlock.create(oldList().build()); Redlock grown = Redlock.create(newList().build())) {
            grown.markNodesFresh();
            grown.acquire("job", Duration.ofSeconds(1)).release();
            assertThrows(MembershipConflictException.class, () -> old.tryAcquire("job", Duration.ofSeconds(1)));
        }
    }

    /**
     * The safe path: a transition configuration (new list, previous list) needs a quorum of both, so it cannot be
     * granted beside a holder of either list, and the nodes accept it beside both.
     */
    @Test
    void aTransitionConfigurationIntersectsBothListsAndIsAcceptedBesideEither() {
        RedlockConfig transition = newList().previousNodes(REDIS.uris().subList(0, 5)).build();
        try (Redlock old = Redlock.create(oldList().build());
             Redlock moving = Redlock.create(transition);
             Redlock grown = Redlock.create(newList().build())) {
            moving.markNodesFresh();
            Lease held = holdOnTheLastThreeOldNodes(old, "job");
            try {
                // 4 of the new list are free (1, 2, 6, 7), but only 2 of the previous: no quorum of the previous list
                LockUnavailableException e = assertThrows(LockUnavailableException.class,
                        () -> moving.tryAcquire("job", Duration.ofSeconds(20)).orElseThrow(() -> new LockUnavailableException(
                                "job", 1, "empty", java.util.List.of())));
                assertTrue(!(e instanceof MembershipConflictException), e.getMessage());
            } finally {
                held.release();
            }
            try (Lease l = moving.acquire("job", Duration.ofSeconds(1))) {   // beside the old list's record
                assertTrue(l.isValid());
            }
            try (Lease l = old.acquire("job", Duration.ofSeconds(1))) {      // the old list beside the transition's
                assertTrue(l.isValid());
            }
        }
        // the old clients are gone (their records expire); the new list runs beside the transition
        REDIS.cluster().nodes().forEach(n -> n.command("HDEL", P + "__node", "m:" + Membership.id(
                RedlockConfig.builder().nodes(REDIS.uris().subList(0, 5)).build().nodeAddresses())));
        try (Redlock moving = Redlock.create(transition); Redlock grown = Redlock.create(newList().build())) {
            moving.acquire("job", Duration.ofSeconds(1)).release();
            grown.acquire("job", Duration.ofSeconds(1)).release();
        }
    }

    /**
     * A node that reports the conflict only after the round was decided (it was slow) still ends the lease: it is
     * marked lost at once, with its own loss reason.
     */
    @Test
    void aConflictReportedAfterTheGrantEndsTheLease() throws Exception {
        String oldId = Membership.id(oldList().build().nodeAddresses());
        try (Redlock old = Redlock.create(oldList().build()); Redlock grown = Redlock.create(newList().build())) {
            grown.markNodesFresh();
            old.acquire("late", Duration.ofSeconds(1)).release();
            for (int i = 1; i < 5; i++) REDIS.node(i).command("HDEL", P + "__node", "m:" + oldId);   // node 0 only
            CompletableFuture<Void> lost = new CompletableFuture<>();
            REDIS.node(0).pause();
            CompletableFuture.runAsync(() -> REDIS.node(0).resume(),
                    CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));
            Lease lease = grown.acquire("late", Duration.ofSeconds(20));     // nodes 1-6 decide it
            lease.onLost(() -> lost.complete(null));
            lost.get(5, TimeUnit.SECONDS);
            assertFalse(lease.isValid(), "lost when node 0's conflict arrived");
            LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
            assertTrue(e.getMessage().contains("another node list"), e.getMessage());
            lease.release();
        }
    }
}
