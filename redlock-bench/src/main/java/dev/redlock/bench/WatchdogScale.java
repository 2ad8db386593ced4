package dev.redlock.bench;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.RedlockListener;
import dev.redlock.RedlockLock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
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
            Latencies late = lateness.snapshot();
            double p99 = late.percentileMs(99);
            out.put("leases", (double) leases);
            out.put("ttl_ms", (double) ttl.toMillis());
            out.put("renewals_observed", (double) late.count());
            out.put("lateness_p50_ms", late.percentileMs(50));
            out.put("lateness_p99_ms", p99);
            out.put("lateness_max_ms", late.percentileMs(100));
            out.put("lateness_p99_over_ttl", p99 * 1e6 / ttl.toNanos());
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

    /** The watchdog's lateness per renewal (sized for the expected renewals up front) and the leases lost. */
    private static final class Lateness implements RedlockListener {
        private final Latencies late;
        final AtomicInteger lost = new AtomicInteger();

        Lateness(int expected) {
            late = new Latencies(expected);
        }

        @Override
        public synchronized void onWatchdogLateness(String resource, long lateNanos) {
            late.add(lateNanos);
        }

        @Override
        public void onLeaseLost(String resource, LossReason reason) {
            lost.incrementAndGet();
        }

        /** A copy of the samples so far (the watchdog may still be adding). */
        synchronized Latencies snapshot() {
            Latencies copy = new Latencies(late.count());
            copy.addAll(late);
            return copy;
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
