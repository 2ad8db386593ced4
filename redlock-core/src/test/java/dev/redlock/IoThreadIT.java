package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Failures;
import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Futures of the async API complete on the library's I/O thread. A blocking method called there would wait for that
 * very thread: it throws {@link IllegalStateException} naming the method and its async alternative instead, and
 * nothing else stalls.
 */
class IoThreadIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static void blockingCallInCallbackFailsFast(Consumer<Lease> call, String method) throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(50).build())) {
            Lease blocker = redlock.acquire("io", Duration.ofSeconds(5));
            CompletableFuture<Lease> acquired = redlock.acquireAsync("io", Duration.ofSeconds(5));
            CompletableFuture<Void> inCallback = acquired.thenAccept(call);
            blocker.release();                        // the acquisition completes now, on the I/O thread
            ExecutionException e = assertThrows(ExecutionException.class, () -> inCallback.get(5, TimeUnit.SECONDS));
            Throwable cause = Failures.unwrap(e);
            assertInstanceOf(IllegalStateException.class, cause, String.valueOf(cause));
            assertTrue(cause.getMessage().contains(method), cause.getMessage());
            // the I/O thread is free: another acquisition completes at once
            redlock.acquire("other", Duration.ofSeconds(5)).release();
            acquired.join().releaseAsync().get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void extendInAnAcquireCallbackThrows() throws Exception {
        blockingCallInCallbackFailsFast(l -> l.extend(Duration.ofSeconds(5)), "extend");
    }

    @Test
    void releaseInAnAcquireCallbackThrows() throws Exception {
        blockingCallInCallbackFailsFast(Lease::release, "release");
    }

    @Test
    void closeOfTheLeaseInAnAcquireCallbackThrows() throws Exception {
        blockingCallInCallbackFailsFast(Lease::close, "close");
    }

    @Test
    void acquireCloseAndHealthInAnAcquireCallbackThrow() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(50).build())) {
            for (String method : List.of("acquire", "tryAcquire", "checkHealth", "markNodesFresh", "close")) {
                Lease blocker = redlock.acquire("io-" + method, Duration.ofSeconds(5));
                CompletableFuture<Lease> acquired = redlock.acquireAsync("io-" + method, Duration.ofSeconds(5));
                CompletableFuture<Object> inCallback = acquired.thenApply(l -> switch (method) {
                    case "acquire" -> redlock.acquire("x", Duration.ofSeconds(1));
                    case "tryAcquire" -> redlock.tryAcquire("x", Duration.ofSeconds(1));
                    case "checkHealth" -> redlock.checkHealth(Duration.ofSeconds(1));
                    case "markNodesFresh" -> redlock.markNodesFresh();
                    default -> {
                        redlock.close();
                        yield "closed";
                    }
                });
                blocker.release();                    // the acquisition completes now, on the I/O thread
                ExecutionException e = assertThrows(ExecutionException.class, () -> inCallback.get(5, TimeUnit.SECONDS));
                assertInstanceOf(IllegalStateException.class, Failures.unwrap(e));
                assertTrue(Failures.unwrap(e).getMessage().contains("Redlock." + method + "()"), e.getMessage());
                acquired.join().releaseAsync().get(5, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Every blocking wait is bounded: with the I/O thread held up by user code (a listener that blocks, against its
     * contract), a blocking acquire gives up with a RedlockException instead of waiting for ever, and no lock is left
     * behind once the thread is free again.
     */
    @Test
    void aBlockingAcquireGivesUpWhenTheIoThreadIsHeldUp() throws Exception {
        RedlockConfig cfg = REDIS.config().nodeTimeout(Duration.ofMillis(100)).retryCount(0).build();
        CountDownLatch stuck = new CountDownLatch(1);
        AtomicBoolean armed = new AtomicBoolean();
        try (Redlock redlock = Redlock.create(cfg)) {
            redlock.addListener(new RedlockListener() {
                @Override
                public void onNodeRequest(int node, String address, Operation operation, NodeOutcome.Kind outcome,
                                          long nanos) {
                    if (!armed.compareAndSet(true, false)) return;
                    try {
                        stuck.await(30, TimeUnit.SECONDS);       // on the I/O thread
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            armed.set(true);
            CompletableFuture<Lease> first = redlock.acquireAsync("held-up", Duration.ofSeconds(5));
            long bound = BlockingWait.acquisitionBoundMillis(cfg, 1);
            long start = System.nanoTime();
            RedlockException e = assertThrows(RedlockException.class, () -> redlock.acquire("other", Duration.ofSeconds(5)));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(e.getMessage().contains("did not end within"), e.getMessage());
            assertTrue(waited < 30_000, "bounded: " + waited + " ms (bound " + bound + " ms)");
            stuck.countDown();
            // the held-up round itself timed out or won: either way nothing stays behind
            first.handle((l, x) -> l).thenCompose(l -> l == null ? CompletableFuture.completedFuture(null) : l.releaseAsync())
                    .get(5, TimeUnit.SECONDS);
        }
        assertEquals(List.of(), REDIS.awaitNoLockKeys());
    }
}
