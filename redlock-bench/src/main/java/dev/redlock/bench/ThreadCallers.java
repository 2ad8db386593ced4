package dev.redlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * W6 for an in-JVM system: one client (one instance, thread-safe for distinct resources) and one platform thread
 * per caller in its blocking acquire and release, the way a thread-per-request service calls a lock.
 */
final class ThreadCallers implements Callers {
    private final LockClient client;
    private final int callers;
    private final String prefix;
    private final long ttlMs;

    ThreadCallers(LockClient client, int callers, String prefix, long ttlMs) {
        this.client = client;
        this.callers = callers;
        this.prefix = prefix;
        this.ttlMs = ttlMs;
    }

    @Override
    public Batch run(long millis) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong failures = new AtomicLong();
        List<Latencies> pairs = new ArrayList<>();
        List<Latencies> acquires = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        try {
            for (int c = 0; c < callers; c++) {
                String resource = prefix + c;
                Latencies pair = new Latencies(1024);
                Latencies acq = new Latencies(1024);
                pairs.add(pair);
                acquires.add(acq);
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        while (!stop.get()) {
                            long t0 = System.nanoTime();
                            LockClient.Held h;
                            try {
                                h = client.acquire(resource, ttlMs, 0);
                            } catch (Exception e) {
                                h = null;
                            }
                            long t1 = System.nanoTime();
                            if (h == null) {
                                failures.incrementAndGet();
                                continue;
                            }
                            try {
                                client.release(h);
                            } catch (Exception e) {
                                failures.incrementAndGet();
                                continue;
                            }
                            if (!stop.get()) {
                                pair.add(System.nanoTime() - t0);
                                acq.add(t1 - t0);
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "w6-caller-" + c);
                threads.add(t);
                t.start();
            }
            long t0 = System.nanoTime();
            go.countDown();
            Thread.sleep(millis);
            stop.set(true);
            long elapsed = System.nanoTime() - t0;
            for (Thread t : threads) t.join(60_000);
            Latencies allPairs = new Latencies(1024);
            Latencies allAcquires = new Latencies(1024);
            pairs.forEach(allPairs::addAll);
            acquires.forEach(allAcquires::addAll);
            return new Batch(allPairs, allAcquires, failures.get(), elapsed);
        } finally {
            stop.set(true);
            go.countDown();
            for (Thread t : threads) t.join(60_000);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
