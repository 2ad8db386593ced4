package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Redlock#withLockAsync}: the lease outlives several TTLs while the task's stage runs and is released after;
 * a lost lease fails the future without waiting for the stage; cancelling cancels the acquisition or releases the
 * lease; no path leaves a key behind (the extension checks after each test).
 */
class WithLockAsyncIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ExecutorService WORKERS = Executors.newCachedThreadPool();

    @AfterAll
    static void stopWorkers() {
        WORKERS.shutdownNow();
    }

    private static Throwable failure(CompletableFuture<?> f) {
        CompletionException e = assertThrows(CompletionException.class, f::join);
        return e.getCause();
    }

    @Test
    void theLeaseOutlivesSeveralTtlsWhileTheStageRunsAndIsReleasedAfter() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            AtomicBoolean someoneElseHeldIt = new AtomicBoolean();
            CompletableFuture<String> result = redlock.withLockAsync("report", Duration.ofMillis(900),
                    lease -> CompletableFuture.supplyAsync(() -> {
                        for (int i = 0; i < 30; i++) {            // 3 s: more than three TTLs
                            Sleep.millis(100);
                            lease.checkValid();
                            if (other.tryAcquire("report", Duration.ofMillis(900)).isPresent()) someoneElseHeldIt.set(true);
                        }
                        return "done:" + lease.fencingToken();
                    }, WORKERS));
            assertTrue(result.join().startsWith("done:"));
            assertFalse(someoneElseHeldIt.get(), "another client got the lock while the stage ran");
            // released before the future completed: a quorum gave the key up
            Lease next = other.tryAcquire("report", Duration.ofMillis(900)).orElseThrow();
            next.release();
        }
    }

    @Test
    void aLostLeaseFailsTheFutureWithoutWaitingForTheStage() {
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            CompletableFuture<String> never = new CompletableFuture<>();
            CompletableFuture<Void> toldTheTask = new CompletableFuture<>();
            CompletableFuture<String> result = redlock.withLockAsync("cut", Duration.ofMillis(600), lease -> {
                lease.whenLost().thenRun(() -> toldTheTask.complete(null));
                return never;
            });
            Sleep.millis(200);
            REDIS.whilePaused(() -> await().atMost(WAIT).until(result::isDone), 0, 1);
            Throwable e = failure(result);
            assertInstanceOf(LeaseLostException.class, e);
            assertTrue(e.getMessage().contains("watchdog"), e.getMessage());
            assertFalse(never.isDone(), "the task's stage was neither waited for nor completed");
            await().atMost(WAIT).until(toldTheTask::isDone);
        }
    }

    @Test
    void maxHoldEndsAStageThatNeverCompletes() {
        try (Redlock redlock = Redlock.create(REDIS.config().maxHold(Duration.ofSeconds(1)).build())) {
            CompletableFuture<String> result = redlock.withLockAsync("stuck", Duration.ofMillis(600),
                    lease -> new CompletableFuture<String>());
            await().atMost(WAIT).until(result::isDone);
            Throwable e = failure(result);
            assertInstanceOf(LeaseLostException.class, e);
            assertTrue(e.getMessage().contains("maxHold"), e.getMessage());
        }
    }

    @Test
    void aFailedStageIsPassedOnAfterTheRelease() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            CompletableFuture<String> result = redlock.withLockAsync("failing", Duration.ofSeconds(2),
                    lease -> CompletableFuture.failedFuture(new IOException("disk full")));
            Throwable e = failure(result);
            assertInstanceOf(IOException.class, e);
            assertEquals("disk full", e.getMessage());
            other.tryAcquire("failing", Duration.ofSeconds(1)).orElseThrow().release();
        }
    }

    @Test
    void aTaskThatThrowsOrReturnsNullFailsTheFutureAndReleases() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            Throwable thrown = failure(redlock.withLockAsync("throwing", Duration.ofSeconds(2), lease -> {
                throw new IllegalStateException("bug in the task");
            }));
            assertEquals("bug in the task", thrown.getMessage());
            Throwable nothing = failure(redlock.<String>withLockAsync("null", Duration.ofSeconds(2), lease -> null));
            assertInstanceOf(NullPointerException.class, nothing);
            other.tryAcquire("throwing", Duration.ofSeconds(1)).orElseThrow().release();
            other.tryAcquire("null", Duration.ofSeconds(1)).orElseThrow().release();
        }
    }

    @Test
    void anUnavailableLockFailsTheFutureWithoutCallingTheTask() {
        try (Redlock holder = Redlock.create(REDIS.config().build());
             Redlock redlock = Redlock.create(REDIS.config().retryCount(1).build())) {
            Lease held = holder.acquire("busy", Duration.ofSeconds(5));
            AtomicBoolean called = new AtomicBoolean();
            Throwable e = failure(redlock.withLockAsync("busy", Duration.ofSeconds(2), lease -> {
                called.set(true);
                return CompletableFuture.completedFuture("x");
            }));
            assertInstanceOf(LockUnavailableException.class, e);
            assertFalse(called.get());
            held.release();
        }
    }

    @Test
    void cancellingBeforeTheAcquireCancelsTheAcquisition() {
        try (Redlock holder = Redlock.create(REDIS.config().build());
             Redlock redlock = Redlock.create(REDIS.config().retryCount(500).retryDelay(Duration.ofMillis(20)).build())) {
            Lease held = holder.acquire("wanted", Duration.ofSeconds(5));
            AtomicBoolean called = new AtomicBoolean();
            CompletableFuture<String> result = redlock.withLockAsync("wanted", Duration.ofSeconds(30), lease -> {
                called.set(true);
                return new CompletableFuture<>();
            });
            Sleep.millis(100);                               // retrying while the holder has it
            assertTrue(result.cancel(true));
            held.release();                                  // free now: an acquisition still running would take it
            Sleep.millis(300);
            assertTrue(REDIS.awaitNoLockKeys().isEmpty(), "the cancelled acquisition took the lock: " + REDIS.lockKeys());
            assertFalse(called.get(), "the task ran after the cancel");
        }
    }

    @Test
    void cancellingWhileHoldingReleasesTheLease() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            AtomicReference<Lease> seen = new AtomicReference<>();
            CompletableFuture<String> never = new CompletableFuture<>();
            CompletableFuture<String> result = redlock.withLockAsync("holding", Duration.ofSeconds(30), lease -> {
                seen.set(lease);
                return never;
            });
            await().atMost(WAIT).until(() -> seen.get() != null);
            assertTrue(result.cancel(true));
            await().atMost(WAIT).until(() -> !seen.get().isValid());
            other.tryAcquire("holding", Duration.ofSeconds(1)).orElseThrow().release();
            assertFalse(never.isDone(), "the task's stage is left alone");
        }
    }

    @Test
    void closingTheRedlockFailsTheFuture() {
        Redlock redlock = Redlock.create(REDIS.config().build());
        AtomicBoolean started = new AtomicBoolean();
        CompletableFuture<String> result = redlock.withLockAsync("closing", Duration.ofSeconds(5), lease -> {
            started.set(true);
            return new CompletableFuture<>();
        });
        await().atMost(WAIT).until(started::get);
        redlock.close();
        await().atMost(WAIT).until(result::isDone);
        Throwable e = failure(result);
        assertInstanceOf(LeaseLostException.class, e);
        assertTrue(e.getMessage().contains("the Redlock was closed"), e.getMessage());
    }

    @Test
    void badArgumentsThrowAtTheCall() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            assertThrows(IllegalArgumentException.class,
                    () -> redlock.withLockAsync("__x", Duration.ofSeconds(1), l -> CompletableFuture.completedFuture(1)));
            assertThrows(IllegalArgumentException.class,
                    () -> redlock.withLockAsync("x", Duration.ZERO, l -> CompletableFuture.completedFuture(1)));
            assertThrows(NullPointerException.class, () -> redlock.withLockAsync("x", Duration.ofSeconds(1), null));
        }
    }
}
