package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What an instance keeps for {@link Redlock#close()} (acquisitions pending, rounds in flight, answers and releases
 * still to come, live leases) empties once the work is done, however it ended: granted and released, refused,
 * cancelled, timed out by the caller, waited for and granted. Each entry leaves as its work completes (no dependent
 * future per call); an entry left behind would be a leak that grows with every call.
 */
class BookkeepingIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    @Test
    void everyEntryLeavesOnceItsWorkIsDone() throws Exception {
        RedlockConfig patient = REDIS.config().retryCount(200).retryDelay(Duration.ofMillis(20))
                .retryJitter(Duration.ZERO).build();
        try (Redlock a = Redlock.create(REDIS.config().build()); Redlock b = Redlock.create(patient)) {
            for (int i = 0; i < 50; i++) a.acquire("k" + (i % 7), Duration.ofSeconds(5)).release();
            for (int i = 0; i < 50; i++) a.acquireAsync("async" + i, Duration.ofSeconds(5)).thenCompose(Lease::releaseAsync).join();

            Lease held = a.acquire("held", Duration.ofSeconds(10));
            for (int i = 0; i < 10; i++) assertTrue(b.tryAcquire("held", Duration.ofSeconds(5)).isEmpty());
            CompletableFuture<Lease> cancelled = b.acquireAsync("held", Duration.ofSeconds(5));
            CompletableFuture<Lease> timedOut = b.acquireAsync("held", Duration.ofSeconds(5)).orTimeout(100, TimeUnit.MILLISECONDS);
            CompletableFuture<Lease> waiting = b.acquireAsync("held", Duration.ofSeconds(5));
            Sleep.millis(50);
            assertTrue(cancelled.cancel(true));
            CompletionException e = assertThrows(CompletionException.class, timedOut::join);
            assertInstanceOf(TimeoutException.class, e.getCause());
            held.release();
            waiting.get(10, TimeUnit.SECONDS).release();

            for (Redlock r : new Redlock[] {a, b}) {
                RedlockContext ctx = r.context();
                await().atMost(Duration.ofSeconds(10)).until(() -> ctx.pending().isEmpty() && ctx.inFlight().isEmpty()
                        && ctx.cleanups().isEmpty() && ctx.live().isEmpty());
            }
        }
    }
}
