package dev.redlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * W2 for an in-JVM system: one thread per client, each in its own client's waiting acquire. Inside the critical
 * section a shared counter detects overlaps, and fencing tokens (when issued) must strictly increase, also across
 * batches.
 */
final class ThreadContenders implements Contenders {
    private final List<LockClient> clients = new ArrayList<>();
    private final String resource;
    private final long ttlMs;
    private final AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);

    ThreadContenders(Supplier<LockClient> factory, int clients, String resource, long ttlMs) {
        this.resource = resource;
        this.ttlMs = ttlMs;
        try {
            for (int c = 0; c < clients; c++) this.clients.add(factory.get());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public Batch run(long millis) throws InterruptedException {
        int n = clients.size();
        AtomicInteger inside = new AtomicInteger();
        AtomicLong overlaps = new AtomicLong();
        AtomicLong tokenRegressions = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        long[] perClient = new long[n];
        List<Thread> threads = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        try {
            for (int c = 0; c < n; c++) {
                final int id = c;
                final LockClient client = clients.get(c);
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        while (!stop.get()) {
                            LockClient.Held h;
                            try {
                                h = client.acquire(resource, ttlMs, 2_000);
                            } catch (Exception e) {
                                errors.incrementAndGet();
                                continue;
                            }
                            if (h == null) continue;
                            if (inside.incrementAndGet() != 1) overlaps.incrementAndGet();
                            if (h.token() >= 0) {
                                long prev = lastToken.getAndSet(h.token());
                                if (prev != Long.MIN_VALUE && h.token() <= prev) tokenRegressions.incrementAndGet();
                            }
                            inside.decrementAndGet();
                            try {
                                client.release(h);
                            } catch (Exception e) {
                                errors.incrementAndGet();
                            }
                            if (!stop.get()) perClient[id]++;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "w2-client-" + c);
                threads.add(t);
                t.start();
            }
            long t0 = System.nanoTime();
            go.countDown();
            Thread.sleep(millis);
            stop.set(true);
            long elapsed = System.nanoTime() - t0;
            for (Thread t : threads) t.join(30_000);
            return new Batch(perClient, overlaps.get(), tokenRegressions.get(), errors.get(), elapsed);
        } finally {
            stop.set(true);
            go.countDown();
            for (Thread t : threads) t.join(30_000);
        }
    }

    @Override
    public void close() {
        clients.forEach(LockClient::close);
    }
}
