package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An acquisition the caller gave up on (cancelled future, interrupted thread, closed Redlock) stops, completes, and
 * leaves no lock behind: a lease granted anyway is released at once instead of being held unused until its TTL.
 */
class AcquireCancellationIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static RedlockConfig patient() {
        return REDIS.config().retryCount(200).retryDelay(Duration.ofMillis(20)).retryJitter(Duration.ZERO).build();
    }

    @Test
    void cancellingTheFutureAbandonsTheAttempt() {
        try (Redlock b = Redlock.create(REDIS.config().build())) {
            b.acquire("warm", Duration.ofSeconds(1)).release();
            int cancelled = 0;
            for (int i = 0; i < 20; i++) {
                CompletableFuture<Lease> f = b.acquireAsync("c" + i, Duration.ofSeconds(30));
                if (f.cancel(true)) cancelled++;
                else f.join().release();              // it was faster than the cancel: a normal lease
            }
            assertTrue(cancelled > 0, "no cancel came before its round completed");
            // a round still running when cancelled must release what it was granted, not hold it for 30 s
            assertTrue(REDIS.awaitNoLockKeys().isEmpty(), cancelled + " cancelled acquisitions left keys: " + REDIS.lockKeys());
        }
    }

    @Test
    void cancellingWhileWaitingBetweenRoundsAbandonsTheAttempt() {
        try (Redlock a = Redlock.create(REDIS.config().build()); Redlock b = Redlock.create(patient())) {
            Lease held = a.acquire("c", Duration.ofSeconds(5));
            CompletableFuture<Lease> waiting = b.acquireAsync("c", Duration.ofSeconds(30));
            Sleep.millis(100);                      // B is retrying
            assertTrue(waiting.cancel(true));
            Sleep.millis(100);                      // a round in flight at the cancel ends
            long rounds = b.context().roundsStarted();
            Sleep.millis(300);
            assertEquals(rounds, b.context().roundsStarted(), "rounds went on after the cancel");
            held.release();                             // the lock is free: an attempt still running would take it
            Sleep.millis(300);
            assertTrue(REDIS.awaitNoLockKeys().isEmpty(), "the cancelled acquisition took the lock: " + REDIS.lockKeys());
            a.tryAcquire("c", Duration.ofSeconds(1)).orElseThrow().release();
        }
    }

    @Test
    void interruptingABlockingAcquireAbandonsTheAttempt() throws Exception {
        try (Redlock a = Redlock.create(REDIS.config().build()); Redlock b = Redlock.create(patient())) {
            Lease held = a.acquire("i", Duration.ofSeconds(5));
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    b.acquire("i", Duration.ofSeconds(30)).release();
                } catch (RuntimeException e) {
                    thrown.set(e);
                }
            });
            t.start();
            Sleep.millis(100);
            t.interrupt();
            t.join(5000);
            assertInstanceOf(RedlockException.class, thrown.get());
            held.release();
            Sleep.millis(300);
            assertTrue(REDIS.awaitNoLockKeys().isEmpty(), "the interrupted acquisition took the lock: " + REDIS.lockKeys());
        }
    }

    @Test
    void closeCompletesEveryPendingAcquisition() throws Exception {
        try (Redlock a = Redlock.create(REDIS.config().build())) {
            Lease held = a.acquire("w", Duration.ofSeconds(5));
            Redlock b = Redlock.create(REDIS.config().retryCount(100).retryDelay(Duration.ofSeconds(1))
                    .retryJitter(Duration.ZERO).build());
            CompletableFuture<Lease> waiting = b.acquireAsync("w", Duration.ofSeconds(5));
            Sleep.millis(150);                      // the first round failed, B waits between rounds
            b.close();
            ExecutionException e = assertThrows(ExecutionException.class, () -> waiting.get(3, TimeUnit.SECONDS));
            assertInstanceOf(RedlockException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
            assertEquals(1, REDIS.lockKeys().size() / 3, "only A's keys");
            held.release();
        }
    }
}
