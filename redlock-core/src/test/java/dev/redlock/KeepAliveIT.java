package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Lease#keepAlive()} on any lease, {@link Lease#whenLost()} as the loss signal (normal on loss and on
 * {@link Redlock#close()}, cancelled by the holder's release), {@code maxHold} ending a stuck holder, and
 * {@link LockedTask#interruptOnLoss} stopping a blocking task: on real nodes.
 */
class KeepAliveIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Counts watchdog extensions and records losses. */
    private static final class Events implements RedlockListener {
        final AtomicInteger watchdogExtensions = new AtomicInteger();
        final List<LossReason> losses = new CopyOnWriteArrayList<>();

        @Override
        public void onExtend(String resource, ExtendTrigger trigger, boolean extended, long nanos, long validityNanos) {
            if (trigger == ExtendTrigger.WATCHDOG) watchdogExtensions.incrementAndGet();
        }

        @Override
        public void onLeaseLost(String resource, LossReason reason) {
            losses.add(reason);
        }
    }

    @Test
    void keepAliveHoldsALeaseFromAcquirePastSeveralTtlsAndIsIdempotent() {
        Events events = new Events();
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            redlock.addListener(events);
            Lease lease = redlock.acquire("kept", Duration.ofMillis(900));
            assertSame(lease, lease.keepAlive());
            lease.keepAlive();
            lease.keepAlive();
            long start = System.nanoTime();
            for (int i = 0; i < 24; i++) {                  // 2.4 s: more than two and a half TTLs
                Sleep.millis(100);
                lease.checkValid();
                assertTrue(other.tryAcquire("kept", Duration.ofMillis(900)).isEmpty(), "another client got the lock");
            }
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            lease.release();
            assertTrue(other.tryAcquire("kept", Duration.ofMillis(900)).map(l -> { l.release(); return true; }).orElse(false),
                    "released after");
            // one watchdog renews every ttl/3 = 300 ms at most (later under load, never sooner): three calls, one watchdog
            int most = (int) (elapsedMs / 300) + 2;
            assertTrue(events.watchdogExtensions.get() <= most,
                    events.watchdogExtensions.get() + " watchdog extensions in " + elapsedMs + " ms: more than one watchdog ran");
            assertTrue(events.watchdogExtensions.get() >= 2, "the watchdog did not run: " + events.watchdogExtensions);
        }
    }

    @Test
    void keepAliveWorksOnLeasesFromTryAcquireAndAcquireAsync() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            Lease tried = redlock.tryAcquire("tried", Duration.ofMillis(600)).orElseThrow().keepAlive();
            Lease async = redlock.acquireAsync("async", Duration.ofMillis(600)).thenApply(Lease::keepAlive).join();
            Sleep.millis(1500);                              // 2.5 TTLs
            assertTrue(tried.isValid(), "tryAcquire's lease was not kept alive");
            assertTrue(async.isValid(), "acquireAsync's lease was not kept alive");
            tried.release();
            async.releaseAsync().join();
        }
    }

    @Test
    void whenLostCompletesNormallyWhenTheLeaseExpires() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            Lease lease = redlock.acquire("expiring", Duration.ofMillis(400));   // no watchdog: it runs out
            CompletableFuture<Void> lost = lease.whenLost();
            assertFalse(lost.isDone());
            await().atMost(WAIT).until(lost::isDone);
            assertFalse(lost.isCompletedExceptionally(), "a loss completes whenLost normally");
            LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
            assertTrue(e.getMessage().contains("validity ran out"), e.getMessage());
            assertFalse(lease.whenLost().isCompletedExceptionally(), "a later call sees the loss too");
            lease.release();
            assertFalse(lease.whenLost().isCompletedExceptionally(), "a release after the loss changes nothing");
        }
    }

    @Test
    void whenLostCompletesNormallyWhenTheWatchdogFails() {
        Events events = new Events();
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            redlock.addListener(events);
            Lease lease = redlock.acquire("cut", Duration.ofMillis(600)).keepAlive();
            CompletableFuture<Void> lost = lease.whenLost();
            REDIS.whilePaused(() -> await().atMost(WAIT).until(lost::isDone), 0, 1);
            assertFalse(lost.isCompletedExceptionally());
            assertEquals(List.of(RedlockListener.LossReason.WATCHDOG_FAILED), events.losses);
            lease.release();
        }
    }

    @Test
    void whenLostIsCancelledByTheHoldersRelease() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            Lease lease = redlock.acquire("released", Duration.ofSeconds(5)).keepAlive();
            CompletableFuture<Void> before = lease.whenLost();
            lease.release();
            assertTrue(before.isCancelled(), "completed exceptionally with a CancellationException");
            assertThrows(CancellationException.class, before::join);
            assertTrue(lease.whenLost().isCancelled(), "also when asked after the release");
        }
    }

    @Test
    void eachWhenLostFutureIsTheCallersOwn() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            Lease lease = redlock.acquire("own", Duration.ofMillis(400));
            CompletableFuture<Void> mine = lease.whenLost();
            CompletableFuture<Void> theirs = lease.whenLost();
            mine.cancel(true);
            mine.complete(null);
            assertFalse(theirs.isDone(), "cancelling one caller's future completed another's");
            assertTrue(lease.isValid(), "cancelling the future released or lost the lease");
            await().atMost(WAIT).until(theirs::isDone);
            assertFalse(theirs.isCompletedExceptionally());
            lease.release();
        }
    }

    @Test
    void closingTheRedlockIsALossToTheHolder() {
        Redlock redlock = Redlock.create(REDIS.config().build());
        Lease lease = redlock.acquire("closed", Duration.ofSeconds(5)).keepAlive();
        CompletableFuture<Void> lost = lease.whenLost();
        redlock.close();
        await().atMost(WAIT).until(lost::isDone);
        assertFalse(lost.isCompletedExceptionally(), "close() took the lease away from its holder: a loss");
        LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
        assertTrue(e.getMessage().contains("the Redlock was closed"), e.getMessage());
        assertTrue(REDIS.awaitNoLockKeys().isEmpty(), "close() released the lease");
    }

    @Test
    void withLockThrowsWhenTheRedlockIsClosedUnderTheTask() {
        Redlock redlock = Redlock.create(REDIS.config().build());
        CompletableFuture<Void> closed = new CompletableFuture<>();
        LeaseLostException e = assertThrows(LeaseLostException.class, () -> redlock.withLock("closing", Duration.ofSeconds(5), lease -> {
            CompletableFuture.runAsync(redlock::close).whenComplete((x, t) -> closed.complete(null));
            closed.join();
            return "done without the lock";
        }));
        assertTrue(e.getMessage().contains("the Redlock was closed while the task ran"), e.getMessage());
    }

    @Test
    void maxHoldEndsAStuckHolder() {
        Events events = new Events();
        Duration maxHold = Duration.ofMillis(1500);
        try (Redlock redlock = Redlock.create(REDIS.config().maxHold(maxHold).build());
             Redlock other = Redlock.create(REDIS.config().build())) {
            redlock.addListener(events);
            long start = System.nanoTime();
            Lease lease = redlock.acquire("stuck", Duration.ofMillis(600)).keepAlive();
            CompletableFuture<Void> lost = lease.whenLost();
            await().atMost(WAIT).until(lost::isDone);
            long heldMs = (System.nanoTime() - start) / 1_000_000;
            assertFalse(lost.isCompletedExceptionally());
            assertTrue(heldMs >= maxHold.toMillis(), "ended after " + heldMs + " ms, before maxHold");
            assertEquals(List.of(RedlockListener.LossReason.MAX_HOLD), events.losses);
            LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
            assertTrue(e.getMessage().contains("maxHold (1500ms)"), e.getMessage());
            // its keys were released at once: another client takes the lock without waiting for the TTL
            Lease next = other.tryAcquire("stuck", Duration.ofMillis(600)).orElseThrow();
            next.release();
            lease.release();
        }
    }

    @Test
    void withoutMaxHoldTheSameHolderIsKept() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            Lease lease = redlock.acquire("kept-on", Duration.ofMillis(600)).keepAlive();
            Sleep.millis(2500);                              // past the 1.5 s cap of the test above
            assertTrue(lease.isValid(), "no cap by default");
            assertFalse(lease.whenLost().isDone());
            lease.release();
        }
    }

    @Test
    void interruptOnLossStopsABlockingTask() {
        try (Redlock redlock = Redlock.create(REDIS.config().maxHold(Duration.ofSeconds(1)).build())) {
            AtomicBoolean interrupted = new AtomicBoolean();
            long start = System.nanoTime();
            LeaseLostException e = assertThrows(LeaseLostException.class,
                    () -> redlock.withLock("blocked", Duration.ofMillis(600), LockedTask.interruptOnLoss(lease -> {
                        try {
                            Thread.sleep(30_000);
                        } catch (InterruptedException ie) {
                            interrupted.set(true);
                            throw ie;
                        }
                        return "slept";
                    })));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(interrupted.get(), "the task was not interrupted");
            assertTrue(tookMs < 30_000, "withLock waited for the task to sleep out: " + tookMs + " ms");
            assertInstanceOf(InterruptedException.class, e.getCause());
            assertTrue(e.getMessage().contains("maxHold") && e.getMessage().contains("the task was interrupted"), e.getMessage());
            assertEquals(0, e.getSuppressed().length, "one loss, reported once");
            assertFalse(Thread.currentThread().isInterrupted(), "the interrupt it delivered was cleared");
        }
    }

    @Test
    void interruptOnLossNeverInterruptsAfterTheTaskReturned() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            Lease lease = redlock.acquire("returned", Duration.ofMillis(300));   // no watchdog: lost after 300 ms
            assertEquals("quick", LockedTask.interruptOnLoss(l -> "quick").run(lease));
            CompletableFuture<Void> lost = lease.whenLost();
            Thread.sleep(1000);                              // the loss happens meanwhile; an interrupt would throw here
            assertTrue(lost.isDone(), "the lease was lost while this thread slept");
            assertFalse(Thread.currentThread().isInterrupted());
            lease.release();
        }
    }

    @Test
    void interruptOnLossWithoutLossReturnsTheResult() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            String r = redlock.withLock("fine", Duration.ofSeconds(2), LockedTask.interruptOnLoss(lease -> "ok:" + lease.resource()));
            assertEquals("ok:fine", r);
            assertFalse(Thread.currentThread().isInterrupted());
        }
    }
}
