package dev.redlock;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * W5: many leases held at once by one process, each renewed by the shared watchdog (ttl/3), with heap, thread
 * count and watchdog lateness. In package {@code dev.redlock} (in the bench module) to start the watchdog on plain
 * leases, as {@code withLock} does, without one blocked thread per lease.
 *
 * <p>Lateness is observed from outside: each successful renewal moves a lease's deadline to
 * {@code roundStart + ttl - drift}, so the renewal's round start is {@code deadline - ttl + drift}; it was due
 * {@code ttl/3} after the previous one. Deadlines are sampled every 20 ms.
 */
public final class WatchdogScale {
    private WatchdogScale() {}

    public static Map<String, Double> run(List<String> uris, int leases, Duration ttl, int holdSeconds) throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        long heapBefore = usedHeapAfterGc();
        try (Redlock redlock = Redlock.create(RedlockConfig.builder().nodes(uris).build())) {
            RedlockConfig cfg = redlock.config();
            long drift = cfg.driftNanos(ttl);
            HeldLease[] held = new HeldLease[leases];
            redlock.acquire("w5:warm", ttl).release();   // connections open before the burst
            long t0 = System.nanoTime();
            int window = 1;     // one at a time: the point is holding them, not a burst
            List<CompletableFuture<Lease>> inflight = new ArrayList<>();
            for (int i = 0; i < leases; i++) {
                inflight.add(redlock.acquireAsync("w5:" + i, ttl));
                if (inflight.size() == window || i == leases - 1) {
                    for (int k = 0; k < inflight.size(); k++) {
                        HeldLease l = (HeldLease) inflight.get(k).get(60, TimeUnit.SECONDS);
                        held[i - inflight.size() + 1 + k] = l;
                        l.startWatchdog();
                    }
                    inflight.clear();
                }
            }
            out.put("acquire_all_s", (System.nanoTime() - t0) / 1e9);
            long[] lastStart = new long[leases];
            long[] lastDeadline = new long[leases];
            for (int i = 0; i < leases; i++) {
                lastDeadline[i] = held[i].deadlineNanos();
                lastStart[i] = lastDeadline[i] - ttl.toNanos() + drift;
            }
            long period = ttl.toNanos() / 3;
            long[] late = new long[leases * (int) (holdSeconds * 1e9 / period + 4)];
            int n = 0;
            int maxThreads = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(holdSeconds);
            while (System.nanoTime() < end) {
                for (int i = 0; i < leases; i++) {
                    long d = held[i].deadlineNanos();
                    if (d != lastDeadline[i]) {
                        long start = d - ttl.toNanos() + drift;
                        if (n < late.length) late[n++] = start - (lastStart[i] + period);
                        lastStart[i] = start;
                        lastDeadline[i] = d;
                    }
                }
                maxThreads = Math.max(maxThreads, ManagementFactory.getThreadMXBean().getThreadCount());
                Thread.sleep(20);
            }
            int lost = 0;
            for (HeldLease l : held) if (!l.isValid()) lost++;
            long heapHeld = usedHeapAfterGc();
            long[] sorted = Arrays.copyOf(late, n);
            Arrays.sort(sorted);
            out.put("leases", (double) leases);
            out.put("ttl_ms", (double) ttl.toMillis());
            out.put("renewals_observed", (double) n);
            out.put("lateness_p50_ms", n == 0 ? Double.NaN : sorted[n / 2] / 1e6);
            out.put("lateness_p99_ms", n == 0 ? Double.NaN : sorted[Math.min(n - 1, (int) (n * 0.99))] / 1e6);
            out.put("lateness_max_ms", n == 0 ? Double.NaN : sorted[n - 1] / 1e6);
            out.put("lateness_p99_over_ttl", n == 0 ? Double.NaN : sorted[Math.min(n - 1, (int) (n * 0.99))] / (double) ttl.toNanos());
            out.put("lost_leases", (double) lost);
            out.put("threads_before", (double) threadsBefore);
            out.put("threads_max_while_holding", (double) maxThreads);
            out.put("heap_before_mb", heapBefore / 1048576.0);
            out.put("heap_holding_mb", heapHeld / 1048576.0);
            out.put("heap_per_lease_bytes", (heapHeld - heapBefore) / (double) leases);
            long r0 = System.nanoTime();
            List<CompletableFuture<Void>> rel = new ArrayList<>();
            for (HeldLease l : held) rel.add(l.releaseAsync());
            CompletableFuture.allOf(rel.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            out.put("release_all_s", (System.nanoTime() - r0) / 1e9);
        }
        return out;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
