package dev.redlock.bench;

import dev.redlock.Redlock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * W2 for redlock with asynchronous clients, the way node-redlock's clients run (promises, no thread each): every
 * client is its own instance, looping {@code acquireAsync} (waiting in the library's own wait: release wake-ups and
 * retries) then {@code releaseAsync}, each step started from the previous one's callback on the instance's I/O
 * thread. The same checks as {@link ThreadContenders} ({@link CriticalSection}).
 */
final class AsyncContenders implements Contenders {
    private final List<Redlock> clients = new ArrayList<>();
    private final String resource;
    private final Duration ttl;
    private final CriticalSection section = new CriticalSection();

    AsyncContenders(Supplier<Redlock> factory, int clients, String resource, long ttlMs) {
        this.resource = resource;
        this.ttl = Duration.ofMillis(ttlMs);
        Contenders.open(factory, clients, this.clients, this::close);
    }

    @Override
    public Batch run(long millis) throws InterruptedException {
        section.reset();
        Shared s = new Shared(clients.size());
        long t0 = System.nanoTime();
        for (int c = 0; c < clients.size(); c++) next(c, s);
        Thread.sleep(millis);
        s.stop.set(true);
        long elapsed = System.nanoTime() - t0;
        if (!s.ended.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("W2 async clients did not stop");
        return new Batch(s.perClient.clone(), section.overlaps(), section.tokenRegressions(), s.errors.get(), elapsed);
    }

    /** What one batch's clients share. */
    private static final class Shared {
        final AtomicBoolean stop = new AtomicBoolean();
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
        AsyncCallers.acquire(clients.get(id), resource, ttl).whenComplete((lease, e) -> {
            if (e != null) {
                s.errors.incrementAndGet();
                next(id, s);
                return;
            }
            section.pass(lease.fencingToken());
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
