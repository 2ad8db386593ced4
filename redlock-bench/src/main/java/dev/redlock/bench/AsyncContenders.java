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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * W2 for redlock with asynchronous clients, the way node-redlock's clients run (promises, no thread each): every
 * client is its own instance, looping {@code acquireAsync} (waiting in the library's own wait: release wake-ups and
 * retries) then {@code releaseAsync}, each step started from the previous one's callback on the instance's I/O
 * thread. The same checks as {@link ThreadContenders}: a shared counter inside the critical section detects
 * overlaps, and fencing tokens must strictly increase, also across batches.
 */
final class AsyncContenders implements Contenders {
    private final List<Redlock> clients = new ArrayList<>();
    private final String resource;
    private final Duration ttl;
    private final AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);

    AsyncContenders(Supplier<Redlock> factory, int clients, String resource, long ttlMs) {
        this.resource = resource;
        this.ttl = Duration.ofMillis(ttlMs);
        try {
            for (int c = 0; c < clients; c++) this.clients.add(factory.get());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public Batch run(long millis) throws InterruptedException {
        Shared s = new Shared(clients.size());
        long t0 = System.nanoTime();
        for (int c = 0; c < clients.size(); c++) next(c, s);
        Thread.sleep(millis);
        s.stop.set(true);
        long elapsed = System.nanoTime() - t0;
        if (!s.ended.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("W2 async clients did not stop");
        return new Batch(s.perClient.clone(), s.overlaps.get(), s.tokenRegressions.get(), s.errors.get(), elapsed);
    }

    /** What one batch's clients share. */
    private static final class Shared {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicLong overlaps = new AtomicLong();
        final AtomicLong tokenRegressions = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final long[] perClient;           // each slot written by its client's chain only, read after ended
        final CountDownLatch ended;

        Shared(int clients) {
            perClient = new long[clients];
            ended = new CountDownLatch(clients);
        }
    }

    /** Client {@code id}'s next pair; its steps happen one after the other, so its slot needs no locking. */
    private void next(int id, Shared s) {
        if (s.stop.get()) {
            s.ended.countDown();
            return;
        }
        CompletableFuture<Lease> acquire;
        try {
            acquire = clients.get(id).acquireAsync(resource, ttl);
        } catch (RuntimeException e) {
            acquire = CompletableFuture.failedFuture(e);
        }
        acquire.whenComplete((lease, e) -> {
            if (e != null) {
                s.errors.incrementAndGet();
                next(id, s);
                return;
            }
            if (s.inside.incrementAndGet() != 1) s.overlaps.incrementAndGet();
            long prev = lastToken.getAndSet(lease.fencingToken());
            if (prev != Long.MIN_VALUE && lease.fencingToken() <= prev) s.tokenRegressions.incrementAndGet();
            s.inside.decrementAndGet();
            lease.releaseAsync().whenComplete((x, e2) -> {
                if (e2 != null) s.errors.incrementAndGet();
                if (!s.stop.get()) s.perClient[id]++;
                next(id, s);
            });
        });
    }

    @Override
    public void close() {
        clients.forEach(Redlock::close);
    }
}
