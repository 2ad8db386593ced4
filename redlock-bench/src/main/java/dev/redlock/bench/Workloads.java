package dev.redlock.bench;

import dev.redlock.testkit.RedisNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** W1..W4: the same workload code for every lock system; each returns named figures (ms, counts, ratios). */
final class Workloads {
    private Workloads() {}

    /**
     * W1 uncontended latency: one client, acquire then release the same free resource, {@code warmup} rounds
     * unmeasured, then {@code n} measured. Acquire and release are timed separately from the caller's side.
     */
    static Map<String, Double> uncontended(LockClient client, String resource, long ttlMs, int warmup, int n)
            throws Exception {
        Latencies acq = new Latencies(n);
        Latencies rel = new Latencies(n);
        int failures = 0;
        for (int i = 0; i < warmup + n; i++) {
            long t0 = System.nanoTime();
            LockClient.Held h;
            try {
                h = client.acquire(resource, ttlMs, 0);
            } catch (Exception e) {                      // a system that throws on timeouts: count it as a failure
                h = null;
            }
            long t1 = System.nanoTime();
            if (h == null) {
                failures++;
                continue;
            }
            try {
                client.release(h);
            } catch (Exception e) {
                failures++;
                continue;
            }
            long t2 = System.nanoTime();
            if (i >= warmup) {
                acq.add(t1 - t0);
                rel.add(t2 - t1);
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("acquire_p50_ms", acq.percentileMs(50));
        out.put("acquire_p99_ms", acq.percentileMs(99));
        out.put("acquire_p999_ms", acq.percentileMs(99.9));
        out.put("release_p50_ms", rel.percentileMs(50));
        out.put("release_p99_ms", rel.percentileMs(99));
        out.put("release_p999_ms", rel.percentileMs(99.9));
        out.put("samples", (double) acq.count());
        out.put("failed_acquires", (double) failures);
        return out;
    }

    /**
     * W1/W4 with the systems interleaved: every client is warmed up, then the measured iterations run in
     * {@code batches} round-robin batches (client A 1/batches of its iterations, then B, ..., then A again), so a
     * change of machine load during the run hits every system alike and their ratios stay meaningful.
     */
    static Map<String, Map<String, Double>> interleaved(Map<String, LockClient> clients, Map<String, Integer> iterations,
                                                        long ttlMs, int warmup, int batches) throws Exception {
        Map<String, Latencies> acq = new LinkedHashMap<>();
        Map<String, Latencies> rel = new LinkedHashMap<>();
        Map<String, Integer> failures = new LinkedHashMap<>();
        for (var e : clients.entrySet()) {
            String res = "w:" + e.getKey();
            for (int i = 0; i < Math.min(warmup, 2 * iterations.get(e.getKey())); i++) {
                try {
                    LockClient.Held h = e.getValue().acquire(res, ttlMs, 0);
                    if (h != null) e.getValue().release(h);
                } catch (Exception ignored) {
                    // warm-up only
                }
            }
            acq.put(e.getKey(), new Latencies(iterations.get(e.getKey())));
            rel.put(e.getKey(), new Latencies(iterations.get(e.getKey())));
            failures.put(e.getKey(), 0);
        }
        java.util.Random order = new java.util.Random(42);
        List<Map.Entry<String, LockClient>> entries = new ArrayList<>(clients.entrySet());
        for (int b = 0; b < batches; b++) {
            java.util.Collections.shuffle(entries, order);   // no system always runs right after the same other one
            for (var e : entries) {
                String res = "w:" + e.getKey();
                int n = Math.max(1, iterations.get(e.getKey()) / batches);
                for (int i = 0; i < n; i++) {
                    long t0 = System.nanoTime();
                    LockClient.Held h;
                    try {
                        h = e.getValue().acquire(res, ttlMs, 0);
                    } catch (Exception ex) {            // e.g. Redisson's timeouts on a loaded machine: a failure
                        h = null;
                    }
                    long t1 = System.nanoTime();
                    if (h == null) {
                        failures.merge(e.getKey(), 1, Integer::sum);
                        continue;
                    }
                    try {
                        e.getValue().release(h);
                    } catch (Exception ex) {
                        failures.merge(e.getKey(), 1, Integer::sum);
                        continue;
                    }
                    long t2 = System.nanoTime();
                    acq.get(e.getKey()).add(t1 - t0);
                    rel.get(e.getKey()).add(t2 - t1);
                }
            }
        }
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (String k : clients.keySet()) {
            Map<String, Double> m = new LinkedHashMap<>();
            Latencies a = acq.get(k), r = rel.get(k);
            m.put("acquire_p50_ms", a.percentileMs(50));
            m.put("acquire_p99_ms", a.percentileMs(99));
            m.put("acquire_p999_ms", a.percentileMs(99.9));
            m.put("release_p50_ms", r.percentileMs(50));
            m.put("release_p99_ms", r.percentileMs(99));
            m.put("release_p999_ms", r.percentileMs(99.9));
            m.put("samples", (double) a.count());
            m.put("failed_acquires", (double) failures.get(k));
            out.put(k, m);
        }
        return out;
    }

    /**
     * W2 contended handoff: {@code clients} clients (each its own instance, own connections, own thread) loop on
     * acquire-release of one resource for {@code seconds}. Inside the critical section a shared counter detects
     * overlaps, and fencing tokens (when issued) must strictly increase.
     */
    static Map<String, Double> contended(Supplier<LockClient> factory, int clients, String resource, long ttlMs,
                                         int seconds) throws Exception {
        List<LockClient> made = new ArrayList<>();
        AtomicInteger inside = new AtomicInteger();
        AtomicLong overlaps = new AtomicLong();
        AtomicLong tokenRegressions = new AtomicLong();
        AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);
        AtomicLong errors = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        long[] perClient = new long[clients];
        List<Thread> threads = new ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) made.add(factory.get());
            CountDownLatch go = new CountDownLatch(1);
            for (int c = 0; c < clients; c++) {
                final int id = c;
                final LockClient client = made.get(c);
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
            Thread.sleep(seconds * 1000L);
            stop.set(true);
            long elapsed = System.nanoTime() - t0;
            for (Thread t : threads) t.join(30_000);
            long total = 0, min = Long.MAX_VALUE, max = 0;
            for (long n : perClient) {
                total += n;
                min = Math.min(min, n);
                max = Math.max(max, n);
            }
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("acquires_per_s", total / (elapsed / 1e9));
            out.put("acquires", (double) total);
            out.put("overlaps", (double) overlaps.get());
            out.put("token_regressions", (double) tokenRegressions.get());
            out.put("errors", (double) errors.get());
            out.put("min_client_share", total == 0 ? 0 : min / (double) total);
            out.put("max_client_share", total == 0 ? 0 : max / (double) total);
            out.put("fairness_min_over_max", max == 0 ? 0 : min / (double) max);
            return out;
        } finally {
            stop.set(true);
            for (Thread t : threads) t.join(30_000);
            made.forEach(LockClient::close);
        }
    }

    /**
     * W3 stalled minority: healthy W1 latency, then the same with {@code stalled} nodes SIGSTOPped. The nodes are
     * always resumed in {@code finally}, also when the workload throws.
     */
    static Map<String, Double> stalled(LockClient client, List<RedisNode> stalled, String resource, long ttlMs,
                                       int warmup, int n) throws Exception {
        Map<String, Double> healthy = uncontended(client, resource + ":healthy", ttlMs, warmup, n);
        Map<String, Double> paused;
        try {
            for (RedisNode node : stalled) node.pause();
            paused = uncontended(client, resource + ":stalled", ttlMs, Math.min(warmup, 2), n);
        } finally {
            for (RedisNode node : stalled) node.resume();
        }
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("healthy_acquire_p50_ms", healthy.get("acquire_p50_ms"));
        out.put("stalled_acquire_p50_ms", paused.get("acquire_p50_ms"));
        out.put("stalled_acquire_p99_ms", paused.get("acquire_p99_ms"));
        out.put("stalled_release_p50_ms", paused.get("release_p50_ms"));
        out.put("stalled_over_healthy", paused.get("acquire_p50_ms") / healthy.get("acquire_p50_ms"));
        out.put("stalled_failed_acquires", paused.get("failed_acquires"));
        return out;
    }
}
