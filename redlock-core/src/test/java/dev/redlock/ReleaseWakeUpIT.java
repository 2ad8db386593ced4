package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.CriticalSection;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Waiters are woken by the holder's release (pub/sub on every node) instead of polling blindly; the retry timer
 * stays the fallback; a wake-up is only a hint (the woken waiter runs a normal quorum round). The retry delays here
 * are long (seconds) so that only a wake-up can explain a prompt acquisition; the bounds are far below them, so
 * the tests do not depend on machine speed.
 */
class ReleaseWakeUpIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    private static RedlockConfig.Builder slowPolling(Duration retryDelay) {
        return REDIS.config().retryCount(50).retryDelay(retryDelay).retryJitter(Duration.ZERO);
    }

    @Test
    void waiterIsWokenByTheReleaseNotByItsRetryTimer() throws Exception {
        try (Redlock holder = Redlock.create(REDIS.config().build());
             Redlock waiter = Redlock.create(slowPolling(Duration.ofSeconds(20)).build())) {
            Lease held = holder.acquire("wake", Duration.ofSeconds(10));
            CompletableFuture<Lease> waiting = waiter.acquireAsync("wake", Duration.ofSeconds(10));
            Thread.sleep(500);                                    // first round failed, subscription active
            assertFalse(waiting.isDone(), "acquired while the lock was held");
            long t0 = System.nanoTime();
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);       // polling alone would take 20 s
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 5_000, "woken after " + ms + " ms: the release did not wake the waiter");
            assertTrue(got.fencingToken() > held.fencingToken(), got.fencingToken() + " after " + held.fencingToken());
            got.release();
        }
    }

    @Test
    void pollingRemainsTheFallbackWhenNoReleaseMessageComes() throws Exception {
        // a foreign holder whose key simply expires publishes nothing: only the retry timer can pick it up
        for (int i = 0; i < 5; i++) REDIS.node(i).command("SET", RedisNodes.PREFIX + "expiring", "foreign", "PX", "700");
        try (Redlock waiter = Redlock.create(slowPolling(Duration.ofMillis(200)).build())) {
            long t0 = System.nanoTime();
            Lease got = waiter.acquireAsync("expiring", Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 500, "acquired after " + ms + " ms, before the foreign key expired");
            assertTrue(got.isValid());
            got.release();
        }
    }

    /**
     * Forged release messages while the lock is held: the waiter's probe finds the lock there, it runs no round,
     * and it goes back to its retry timer for this wait (one probe per wait), so the real release is picked up by
     * polling here (retry delay 2 s).
     */
    @Test
    void aWakeUpIsOnlyAHintTheWaiterStillNeedsAQuorum() throws Exception {
        try (Redlock holder = Redlock.create(REDIS.config().build());
             Redlock waiter = Redlock.create(slowPolling(Duration.ofSeconds(2)).build())) {
            Lease held = holder.acquire("forged", Duration.ofSeconds(10));
            CompletableFuture<Lease> waiting = waiter.acquireAsync("forged", Duration.ofSeconds(10));
            Thread.sleep(500);                                    // first round refused, subscribed, listening
            long roundsBefore = waiter.context().roundsStarted();
            // forged release messages on every node while the lock is still held: the waiter wakes, probes, finds
            // the lock held and goes back to waiting; it is never handed the lock
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 5; i++) REDIS.node(i).command("PUBLISH", RedisNodes.PREFIX + "__released:forged", "1");
                Thread.sleep(150);
                assertFalse(waiting.isDone(), "a release message alone handed out the lock");
            }
            assertTrue(held.isValid());
            for (int i = 0; i < 5; i++) assertEquals(((HeldLease) held).owner(), REDIS.ownerOn(i, "forged"));
            assertEquals(roundsBefore, waiter.context().roundsStarted(), "the probe should have spared the waiter a round");
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);
            assertTrue(got.fencingToken() > held.fencingToken());
            got.release();
        }
    }

    /**
     * The probe that follows a message is fooled too (the lock key is gone on the nodes the waiter listens to), so
     * the waiter really runs a round: it still needs a quorum, is refused by the other three nodes, cleans up its
     * two partial grants and keeps waiting.
     */
    @Test
    void aWokenWaiterWhoseProbeIsFooledStillNeedsAQuorum() throws Exception {
        String resource = "fooled";
        int first = Math.floorMod(resource.hashCode(), 5);
        int[] listened = {first, (first + 1) % 5};           // the node the waiter subscribes on, and one more
        try (Redlock holder = Redlock.create(REDIS.config().build());
             Redlock waiter = Redlock.create(slowPolling(Duration.ofSeconds(20)).build())) {
            Lease held = holder.acquire(resource, Duration.ofSeconds(10));
            CompletableFuture<Lease> waiting = waiter.acquireAsync(resource, Duration.ofSeconds(10));
            Thread.sleep(500);
            long roundsBefore = waiter.context().roundsStarted();
            for (int node : listened) {
                REDIS.node(node).command("DEL", RedisNodes.PREFIX + resource);
                REDIS.node(node).command("PUBLISH", RedisNodes.PREFIX + "__released:" + resource, "1");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            int stillHeld;
            do {                                               // the waiter's round ran and cleaned up after itself
                Thread.sleep(50);
                stillHeld = 0;
                for (int i = 0; i < 5; i++) if (REDIS.ownerOn(i, resource).isEmpty()) stillHeld++;
            } while ((stillHeld != 2 || waiter.context().roundsStarted() == roundsBefore) && System.nanoTime() < deadline);
            assertTrue(waiter.context().roundsStarted() > roundsBefore, "the fooled probe did not lead to a round");
            assertFalse(waiting.isDone(), "a waiter got the lock from two nodes");
            int holderNodes = 0;
            for (int i = 0; i < 5; i++) if (REDIS.ownerOn(i, resource).equals(((HeldLease) held).owner())) holderNodes++;
            assertEquals(3, holderNodes);
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);
            assertTrue(got.fencingToken() > held.fencingToken());
            got.release();
        }
    }

    /**
     * The holder's quorum leaves out the node the waiter listens on. The waiter must neither spin through rounds
     * (its checks go to a node where it saw the holder, not to the listened node where the lock looks free) nor
     * miss the release (a held lease's release announces itself on every node, holder's key there or not).
     */
    @Test
    void holderQuorumWithoutTheListenedNodeNeitherSpinsNorMissesTheRelease() throws Exception {
        String resource = "partial";
        int listened = Math.floorMod(resource.hashCode(), 5);
        int other = (listened + 1) % 5;
        for (int n : new int[] {listened, other}) REDIS.node(n).command("SET", RedisNodes.PREFIX + resource, "foreign", "PX", "60000");
        try (Redlock holder = Redlock.create(REDIS.config().retryCount(0).build());
             Redlock waiter = Redlock.create(slowPolling(Duration.ofSeconds(20)).build())) {
            Lease held = holder.acquire(resource, Duration.ofSeconds(10));   // on the three other nodes
            for (int n : new int[] {listened, other}) REDIS.node(n).command("DEL", RedisNodes.PREFIX + resource);
            CompletableFuture<Lease> waiting = waiter.acquireAsync(resource, Duration.ofSeconds(10));
            Thread.sleep(1000);
            assertFalse(waiting.isDone(), "the waiter finished (spun through its rounds?) while the lock was held");
            long rounds = waiter.context().roundsStarted();
            assertTrue(rounds <= 3, rounds + " rounds in 1 s while the lock was held: the waiter spins");
            long t0 = System.nanoTime();
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);                   // polling alone would take 20 s
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 5_000, "woken after " + ms + " ms");
            assertTrue(got.fencingToken() > held.fencingToken());
            got.release();
        }
    }

    /** Safety under wake-driven handoff: woken waiters race each other, yet holds never overlap and tokens rise. */
    @Test
    void contendedHandoffDrivenByWakeUpsNeverOverlaps() throws Exception {
        int clients = 4;
        int perClient = 10;
        CriticalSection section = new CriticalSection();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Redlock> redlocks = new ArrayList<>();
        long t0 = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                Redlock r = Redlock.create(REDIS.config().retryCount(1000).retryDelay(Duration.ofSeconds(2))
                        .retryJitter(Duration.ofMillis(500)).build());
                redlocks.add(r);
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perClient; i++) {
                        try (Lease lease = r.acquire("handoff", Duration.ofSeconds(5))) {
                            section.hold(lease, 1);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
            redlocks.forEach(Redlock::close);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        section.assertExclusiveWithIncreasingTokens(clients * perClient);
        // progress bound only (the safety checks above are the point): 40 handoffs, generous for a loaded machine
        assertTrue(ms < 60_000, "40 contended acquisitions took " + ms + " ms");
    }

    /** The node a waiter on "subs" subscribes on (picked by the resource's hash). */
    private static final int SUBS_NODE = Math.floorMod("subs".hashCode(), 5);

    @Test
    void subscriptionsAreDroppedOnClose() throws Exception {
        Redlock holder = Redlock.create(REDIS.config().build());
        Redlock waiter = Redlock.create(slowPolling(Duration.ofSeconds(20)).build());
        try {
            Lease held = holder.acquire("subs", Duration.ofSeconds(10));
            CompletableFuture<Lease> waiting = waiter.acquireAsync("subs", Duration.ofSeconds(10));
            Thread.sleep(500);
            assertEquals(1, waiter.context().releases().subscribedResources());
            String numsub = REDIS.node(SUBS_NODE).command("PUBSUB", "NUMSUB", RedisNodes.PREFIX + "__released:subs");
            assertTrue(numsub.endsWith("1"), "not subscribed on node " + SUBS_NODE + ": " + numsub);
            held.release();
            waiting.get(10, TimeUnit.SECONDS).release();
        } finally {
            holder.close();
            waiter.close();
        }
        assertEquals(0, waiter.context().releases().subscribedResources());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String numsub;
        do {
            numsub = REDIS.node(SUBS_NODE).command("PUBSUB", "NUMSUB", RedisNodes.PREFIX + "__released:subs");
            if (numsub.endsWith("0")) break;
            Sleep.millis(50);
        } while (System.nanoTime() < deadline);
        assertTrue(numsub.endsWith("0"), "still subscribed after close: " + numsub);
    }
}
