package dev.redlock.bench;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.RedlockListener;
import dev.redlock.RedlockLock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * W5: many leases held at once by one process, each renewed by the shared watchdog (every ttl/3), with heap, thread
 * count and watchdog lateness. Holds them as an application does, through the public API: one {@link RedlockLock}
 * per resource, all locked by one thread (no thread blocked per lease).
 *
 * <p>Lateness is the library's own figure ({@link RedlockListener#onWatchdogLateness}): how long after it was due a
 * renewal started. Lost leases are counted from {@link RedlockListener#onLeaseLost}.
 */
final class WatchdogScale {
    private WatchdogScale() {}

    static Map<String, Double> run(List<String> uris, int leases, Duration ttl, int holdSeconds)
            throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        long heapBefore = usedHeapAfterGc();
        Lateness lateness = new Lateness(leases * (int) (holdSeconds * 3_000L / ttl.toMillis() + 4));
        try (Redlock redlock = Redlock.create(RedlockConfig.builder().nodes(uris).build())) {
            redlock.addListener(lateness);
            redlock.acquire("w5:warm", ttl).release();   // connections open before the first lease
            RedlockLock[] held = new RedlockLock[leases];
            long t0 = System.nanoTime();
            for (int i = 0; i < leases; i++) {           // one at a time: the point is holding them, not a burst
                held[i] = redlock.newLock("w5:" + i, ttl);
                held[i].lock();
            }
            out.put("acquire_all_s", (System.nanoTime() - t0) / 1e9);
            int maxThreads = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(holdSeconds);
            while (System.nanoTime() < end) {
                maxThreads = Math.max(maxThreads, ManagementFactory.getThreadMXBean().getThreadCount());
                Thread.sleep(20);
            }
            long heapHeld = usedHeapAfterGc();
            long[] sorted = lateness.sorted();
            int n = sorted.length;
            out.put("leases", (double) leases);
            out.put("ttl_ms", (double) ttl.toMillis());
            out.put("renewals_observed", (double) n);
            out.put("lateness_p50_ms", n == 0 ? Double.NaN : sorted[n / 2] / 1e6);
            out.put("lateness_p99_ms", n == 0 ? Double.NaN : sorted[Math.min(n - 1, (int) (n * 0.99))] / 1e6);
            out.put("lateness_max_ms", n == 0 ? Double.NaN : sorted[n - 1] / 1e6);
            out.put("lateness_p99_over_ttl", n == 0 ? Double.NaN : sorted[Math.min(n - 1, (int) (n * 0.99))] / (double) ttl.toNanos());
            out.put("lost_leases", (double) lateness.lost.get());
            out.put("threads_before", (double) threadsBefore);
            out.put("threads_max_while_holding", (double) maxThreads);
            out.put("heap_before_mb", heapBefore / 1048576.0);
            out.put("heap_holding_mb", heapHeld / 1048576.0);
            out.put("heap_per_lease_bytes", (heapHeld - heapBefore) / (double) leases);
            long r0 = System.nanoTime();
            for (RedlockLock l : held) l.unlock();
            out.put("release_all_s", (System.nanoTime() - r0) / 1e9);
        }
        return out;
    }

    /** The watchdog's lateness per renewal (up to a fixed number, preallocated) and the leases lost. */
    private static final class Lateness implements RedlockListener {
        private final long[] late;
        private int n;
        final AtomicInteger lost = new AtomicInteger();

        Lateness(int capacity) {
            late = new long[capacity];
        }

        @Override
        public synchronized void onWatchdogLateness(String resource, long lateNanos) {
            if (n < late.length) late[n++] = lateNanos;
        }

        @Override
        public void onLeaseLost(String resource, LossReason reason) {
            lost.incrementAndGet();
        }

        synchronized long[] sorted() {
            long[] s = Arrays.copyOf(late, n);
            Arrays.sort(s);
            return s;
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
