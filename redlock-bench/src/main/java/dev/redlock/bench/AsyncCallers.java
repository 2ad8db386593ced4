package dev.redlock.bench;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * W6 for redlock with asynchronous callers, the way node-redlock's callers run (promises on one event loop): each
 * caller is a chain {@code acquireAsync} then {@code releaseAsync} then the next pair, with no thread of its own.
 * The chains run on the instance's I/O thread. One round per acquire (the instance has {@code retryCount} 0).
 */
final class AsyncCallers implements Callers {
    private final Redlock redlock;
    private final int callers;
    private final String prefix;
    private final Duration ttl;

    AsyncCallers(Redlock redlock, int callers, String prefix, long ttlMs) {
        this.redlock = redlock;
        this.callers = callers;
        this.prefix = prefix;
        this.ttl = Duration.ofMillis(ttlMs);
    }

    @Override
    public Batch run(long millis) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong failures = new AtomicLong();
        CountDownLatch ended = new CountDownLatch(callers);
        List<Chain> chains = new ArrayList<>();
        for (int c = 0; c < callers; c++) chains.add(new Chain(prefix + c, stop, failures, ended));
        long t0 = System.nanoTime();
        chains.forEach(Chain::next);
        Thread.sleep(millis);
        stop.set(true);
        long elapsed = System.nanoTime() - t0;
        if (!ended.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("W6 async callers did not stop");
        Latencies pairs = new Latencies(1024);
        Latencies acquires = new Latencies(1024);
        for (Chain c : chains) {
            pairs.addAll(c.pairs);
            acquires.addAll(c.acquires);
        }
        return new Batch(pairs, acquires, failures.get(), elapsed);
    }

    /** {@code acquireAsync}, with a call that throws turned into a failed future (every async workload's first step). */
    static CompletableFuture<Lease> acquire(Redlock redlock, String resource, Duration ttl) {
        try {
            return redlock.acquireAsync(resource, ttl);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** One caller: its pairs run one after the other (each step happens-after the previous, so no locking). */
    private final class Chain {
        final String resource;
        final AtomicBoolean stop;
        final AtomicLong failures;
        final CountDownLatch ended;
        final Latencies pairs = new Latencies(1024);
        final Latencies acquires = new Latencies(1024);

        Chain(String resource, AtomicBoolean stop, AtomicLong failures, CountDownLatch ended) {
            this.resource = resource;
            this.stop = stop;
            this.failures = failures;
            this.ended = ended;
        }

        void next() {
            if (stop.get()) {
                ended.countDown();
                return;
            }
            long t0 = System.nanoTime();
            acquire(redlock, resource, ttl).whenComplete((lease, e) -> {
                if (e != null) {
                    failures.incrementAndGet();
                    next();
                    return;
                }
                long t1 = System.nanoTime();
                lease.releaseAsync().whenComplete((x, e2) -> {
                    if (e2 != null) {
                        failures.incrementAndGet();      // as the blocking callers: a failed release is no pair
                    } else if (!stop.get()) {
                        pairs.add(System.nanoTime() - t0);
                        acquires.add(t1 - t0);
                    }
                    next();
                });
            });
        }
    }

    @Override
    public void close() {
        redlock.close();
    }
}
