package dev.redlock.bench;

import java.util.ArrayList;
import java.util.List;
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
        AtomicLong failures = new AtomicLong();
        List<Latencies> pairs = new ArrayList<>();
        List<Latencies> acquires = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            pairs.add(new Latencies(1024));
            acquires.add(new Latencies(1024));
        }
        long elapsed = TimedThreads.run(callers, "w6-caller", (c, stop) -> {
            String resource = prefix + c;
            while (!stop.get()) {
                long t0 = System.nanoTime();
                LockClient.Held h;
                Exception why = null;
                try {
                    h = client.acquire(resource, ttlMs, 0);
                } catch (Exception e) {
                    h = null;
                    why = e;
                }
                long t1 = System.nanoTime();
                if (h == null) {
                    failed(failures, "acquire", why);
                    continue;
                }
                try {
                    client.release(h);
                } catch (Exception e) {
                    failed(failures, "release", e);
                    continue;
                }
                if (!stop.get()) {
                    pairs.get(c).add(System.nanoTime() - t0);
                    acquires.get(c).add(t1 - t0);
                }
            }
        }, millis);
        Latencies allPairs = new Latencies(1024);
        Latencies allAcquires = new Latencies(1024);
        pairs.forEach(allPairs::addAll);
        acquires.forEach(allAcquires::addAll);
        return new Batch(allPairs, allAcquires, failures.get(), elapsed);
    }

    /** Counts a failure; the first few of a batch are printed with their reason (where the failures come from). */
    private void failed(AtomicLong failures, String what, Exception why) {
        if (failures.incrementAndGet() <= 3) {
            System.err.println("    W6 " + prefix + " " + callers + " callers, " + what + " failed: "
                    + (why == null ? "not acquired" : why.getClass().getSimpleName() + ": " + why.getMessage()));
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
