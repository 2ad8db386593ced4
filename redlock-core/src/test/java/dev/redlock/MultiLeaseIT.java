package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Failures;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@link MultiLease}'s life on 3 real nodes: kept alive, extended, lost as a whole when one resource is gone on a
 * quorum, released token-checked per key, taken by {@link Redlock#close()}, acquired asynchronously and cancelled,
 * refused on the I/O thread, and its release waking the waiters of each resource.
 */
class MultiLeaseIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);
    private static final String P = RedisNodes.PREFIX;
    private static final List<String> AB = List.of("a", "b");
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static long pttl(int node, String resource) {
        return Long.parseLong(REDIS.node(node).command("PTTL", P + resource));
    }

    /** Records losses. */
    private static final class Losses implements RedlockListener {
        final List<String> lost = new CopyOnWriteArrayList<>();

        @Override
        public void onLeaseLost(String resource, LossReason reason) {
            lost.add(resource + ":" + reason);
        }
    }

    @Test
    void keepAliveHoldsItPastSeveralTtls() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            MultiLease lease = redlock.acquireAll(AB, Duration.ofMillis(600));
            assertSame(lease, lease.keepAlive());
            Sleep.millis(2000);                                           // more than three TTLs
            assertTrue(lease.isValid(), lease.toString());
            lease.checkValid();
            String owner = ((HeldMultiLease) lease).owner();
            for (int i = 0; i < 3; i++) for (String r : AB) assertEquals(owner, REDIS.ownerOn(i, r), r + " on node " + i);
            lease.release();
        }
    }

    /**
     * Guard: an extension counts a node only where it still holds every resource. One resource deleted on two of
     * three nodes: the watchdog cannot re-hold a quorum, the whole lease is lost, and its remaining keys are released.
     */
    @Test
    void losingOneResourceOnAQuorumLosesTheWholeLease() throws Exception {
        Losses events = new Losses();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            redlock.addListener(events);
            MultiLease lease = redlock.acquireAll(AB, Duration.ofMillis(900)).keepAlive();
            CompletableFuture<Void> onLost = new CompletableFuture<>();
            lease.onLost(() -> onLost.complete(null));
            CompletableFuture<Void> whenLost = lease.whenLost();
            for (int i = 0; i < 2; i++) REDIS.node(i).command("DEL", P + "b");
            whenLost.get(5, TimeUnit.SECONDS);                             // completes normally on a loss
            onLost.get(5, TimeUnit.SECONDS);
            assertFalse(lease.isValid());
            LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
            assertTrue(e.getMessage().contains("[a, b]") && e.getMessage().contains("watchdog"), e.getMessage());
            assertEquals(List.of("[a, b]:WATCHDOG_FAILED"), events.lost);
            assertEquals(List.of(), REDIS.awaitNoLockKeys(), "a lost lease releases what is left of it");
        }
    }

    @Test
    void maxHoldEndsAnAutoExtendedMultiLease() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().maxHold(Duration.ofSeconds(1)).build())) {
            MultiLease lease = redlock.acquireAll(AB, Duration.ofMillis(600)).keepAlive();
            lease.whenLost().get(5, TimeUnit.SECONDS);
            assertTrue(assertThrows(LeaseLostException.class, lease::checkValid).getMessage().contains("maxHold"));
            assertEquals(List.of(), REDIS.awaitNoLockKeys());
        }
    }

    /** Guard: the release deletes each key that holds our owner and no other. */
    @Test
    void releaseIsTokenCheckedPerKey() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            MultiLease lease = redlock.acquireAll(AB, Duration.ofSeconds(5));
            REDIS.node(0).command("SET", P + "b", "someone-else", "PX", "60000");   // as if b expired and was re-taken
            lease.release();
            await().atMost(WAIT).until(() -> REDIS.lockKeys().size() == 1);
            assertEquals("someone-else", REDIS.ownerOn(0, "b"));
            for (int i = 0; i < 3; i++) assertEquals("", REDIS.ownerOn(i, "a"));
            REDIS.node(0).command("DEL", P + "b");
        }
    }

    @Test
    void extendResetsTheTtlOfEveryKey() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             MultiLease lease = redlock.acquireAll(AB, Duration.ofMillis(500))) {
            lease.extend(Duration.ofSeconds(5));
            assertTrue(lease.remainingValidity().compareTo(Duration.ofSeconds(4)) > 0, lease.remainingValidity().toString());
            Sleep.millis(700);                                             // past the first TTL
            assertTrue(lease.isValid());
            for (int i = 0; i < 3; i++) for (String r : AB) assertTrue(pttl(i, r) > 3000, r + " on node " + i);
            assertThrows(IllegalArgumentException.class, () -> lease.extend(Duration.ofMillis(1)));
        }
    }

    @Test
    void closingTheRedlockReleasesItAndTellsTheHolder() throws Exception {
        Redlock redlock = Redlock.create(REDIS.config().build());
        MultiLease lease = redlock.acquireAll(AB, Duration.ofSeconds(30));
        CompletableFuture<Void> whenLost = lease.whenLost();
        redlock.close();
        whenLost.get(5, TimeUnit.SECONDS);                                 // normally: taken away, not released
        assertFalse(lease.isValid());
        assertTrue(assertThrows(LeaseLostException.class, lease::checkValid).getMessage().contains("closed"));
        assertEquals(List.of(), REDIS.awaitNoLockKeys());
    }

    @Test
    void releaseAsyncIsIdempotentAndWhenLostIsCancelledByTheRelease() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            MultiLease lease = redlock.acquireAllAsync(AB, Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS);
            CompletableFuture<Void> whenLost = lease.whenLost();
            CompletableFuture<Void> first = lease.releaseAsync();
            assertFalse(lease.isValid(), "invalid from the call on");
            assertSame(first, lease.releaseAsync());
            first.get(5, TimeUnit.SECONDS);
            assertThrows(CancellationException.class, () -> whenLost.get(5, TimeUnit.SECONDS));
            assertTrue(whenLost.isCompletedExceptionally());
            assertEquals(List.of(), REDIS.awaitNoLockKeys());
        }
    }

    @Test
    void aCancelledAsyncAcquisitionLeavesNothing() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(10_000).build());
             Lease blocker = redlock.acquire("b", Duration.ofSeconds(5))) {
            long before = redlock.context().roundsStarted();
            CompletableFuture<MultiLease> waiting = redlock.acquireAllAsync(AB, Duration.ofSeconds(5));
            await().atMost(WAIT).until(() -> redlock.context().roundsStarted() > before + 1);   // lost a round, retries
            assertFalse(waiting.isDone(), "b is held");
            waiting.cancel(false);
            blocker.release();
            assertEquals(List.of(), REDIS.awaitNoLockKeys(), "nothing acquired after the cancel");
        }
    }

    @Test
    void blockingCallsOnTheIoThreadThrow() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(50).build())) {
            Lease blocker = redlock.acquire("b", Duration.ofSeconds(5));
            CompletableFuture<MultiLease> acquired = redlock.acquireAllAsync(AB, Duration.ofSeconds(5));
            CompletableFuture<Object> acquireInCallback = acquired.thenApply(l -> redlock.acquireAll(List.of("c"), WAIT));
            CompletableFuture<Void> releaseInCallback = acquired.thenAccept(MultiLease::release);
            blocker.release();                                              // completes the acquisition on the I/O thread
            for (var f : List.of(acquireInCallback, releaseInCallback)) {
                Throwable t = Failures.unwrap(assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS)));
                assertInstanceOf(IllegalStateException.class, t, String.valueOf(t));
                assertTrue(t.getMessage().contains("Redlock.acquireAll()") || t.getMessage().contains("MultiLease.release()"),
                        t.getMessage());
            }
            acquired.join().releaseAsync().get(5, TimeUnit.SECONDS);
        }
    }

    /**
     * Guard: a multi release wakes the waiters of each of its resources, and a multi waiter listens on a resource it
     * found held. Retry delays of 20 s: only a wake-up explains a prompt acquisition.
     */
    @Test
    void releasesWakeWaitersOfEitherKind() throws Exception {
        RedlockConfig slow = REDIS.config().retryCount(50).retryDelay(Duration.ofSeconds(20)).retryJitter(Duration.ZERO).build();
        try (Redlock holder = Redlock.create(REDIS.config().build()); Redlock waiter = Redlock.create(slow)) {
            MultiLease held = holder.acquireAll(AB, Duration.ofSeconds(10));
            CompletableFuture<Lease> single = waiter.acquireAsync("b", Duration.ofSeconds(10));
            Sleep.millis(500);                                              // its first round failed, it listens
            long t0 = System.nanoTime();
            held.release();
            Lease got = single.get(10, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 5_000, "woken after " + ms + " ms: the multi release did not wake the waiter of b");
            assertTrue(got.fencingToken() > held.fencingToken("b"));

            CompletableFuture<MultiLease> multi = waiter.acquireAllAsync(List.of("a", "b"), Duration.ofSeconds(10));
            Sleep.millis(500);
            t0 = System.nanoTime();
            got.release();
            MultiLease both = multi.get(10, TimeUnit.SECONDS);
            ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 5_000, "woken after " + ms + " ms: the multi waiter did not listen on b");
            both.release();
        }
    }
}
