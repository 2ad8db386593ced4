package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link Lease#onLost} listeners run exactly once, also when registered while the lease is being lost. */
class LeaseListenersIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(1);

    @Test
    void aListenerRegisteredWhileTheLeaseIsLostRunsExactlyOnce() throws Exception {
        int races = 3_000;
        AtomicInteger[] runs = new AtomicInteger[races];
        ExecutorService two = Executors.newFixedThreadPool(2);
        try (Redlock r = Redlock.create(REDIS.config().build())) {
            RedlockContext ctx = r.context();
            for (int i = 0; i < races; i++) {
                // a lease object as acquire returns it (no need to hold the key: losing it sends a harmless release)
                HeldLease lease = new HeldLease(ctx, "l", RedlockContext.newOwner(), 1, Duration.ofSeconds(1),
                        ctx.ticker().nanoTime() + Duration.ofSeconds(1).toNanos());
                AtomicInteger count = new AtomicInteger();
                runs[i] = count;
                AtomicInteger ready = new AtomicInteger();
                Future<?> lose = two.submit(() -> {
                    ready.incrementAndGet();
                    while (ready.get() < 2) Thread.onSpinWait();
                    lease.markLost(RedlockListener.LossReason.EXPIRED, "lost by the test");
                });
                Future<?> listen = two.submit(() -> {
                    ready.incrementAndGet();
                    while (ready.get() < 2) Thread.onSpinWait();
                    lease.onLost(count::incrementAndGet);
                });
                lose.get(5, TimeUnit.SECONDS);
                listen.get(5, TimeUnit.SECONDS);
            }
            ctx.events().submit(() -> { }).get(10, TimeUnit.SECONDS);   // every listener has run
        } finally {
            two.shutdownNow();
        }
        long wrong = Arrays.stream(runs).filter(c -> c.get() != 1).count();
        assertEquals(0, wrong, wrong + " of " + races + " listeners did not run exactly once");
    }
}
