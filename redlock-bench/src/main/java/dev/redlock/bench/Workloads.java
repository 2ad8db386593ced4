package dev.redlock.bench;

import dev.redlock.testkit.RedisNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BinaryOperator;

/**
 * W1..W4 and W6: the same workload code for every lock system; each returns named figures (ms, counts, ratios).
 * Where several systems are measured together they run in shuffled, interleaved batches, so a change of machine
 * load during the run hits every system alike and their ratios stay meaningful.
 */
final class Workloads {
    private Workloads() {}

    /** One batch of one system; returns something {@link #interleave} can add up. */
    @FunctionalInterface
    interface Step<S, B> {
        B run(String name, S system) throws Exception;
    }

    /**
     * Runs {@code step} {@code batches} times for every system, in an order shuffled per batch (seeded: the same
     * every run), and adds up each system's batches with {@code plus}.
     */
    static <S, B> Map<String, B> interleave(Map<String, S> systems, int batches, Step<S, B> step, BinaryOperator<B> plus)
            throws Exception {
        Random order = new Random(42);
        List<Map.Entry<String, S>> entries = new ArrayList<>(systems.entrySet());
        Map<String, B> total = new LinkedHashMap<>();
        for (int b = 0; b < batches; b++) {
            Collections.shuffle(entries, order);   // no system always runs right after the same other one
            for (var e : entries) total.merge(e.getKey(), step.run(e.getKey(), e.getValue()), plus);
        }
        Map<String, B> inOrder = new LinkedHashMap<>();
        systems.keySet().forEach(k -> inOrder.put(k, total.get(k)));
        return inOrder;
    }

    /**
     * W1 uncontended latency: one client, acquire then release the same free resource, {@code warmup} rounds
     * unmeasured, then {@code n} measured. Acquire and release are timed separately from the caller's side.
     */
    static Map<String, Double> uncontended(LockClient client, String resource, long ttlMs, int warmup, int n) {
        client.uncontended(resource, ttlMs, warmup, null, null);
        Latencies acq = new Latencies(n);
        Latencies rel = new Latencies(n);
        int failures = client.uncontended(resource, ttlMs, n, acq, rel);
        return latencyFigures(acq, rel, failures);
    }

    /**
     * W1/W4 with the systems interleaved: every client is warmed up ({@code warmup} pairs), then the measured
     * iterations run in {@code batches} shuffled batches.
     */
    static Map<String, Map<String, Double>> interleaved(Map<String, LockClient> clients, Map<String, Integer> iterations,
                                                        long ttlMs, int warmup, int batches) throws Exception {
        Map<String, Latencies> acq = new LinkedHashMap<>();
        Map<String, Latencies> rel = new LinkedHashMap<>();
        for (var e : clients.entrySet()) {
            e.getValue().uncontended("w:" + e.getKey(), ttlMs, warmup, null, null);
            acq.put(e.getKey(), new Latencies(iterations.get(e.getKey())));
            rel.put(e.getKey(), new Latencies(iterations.get(e.getKey())));
        }
        Map<String, Integer> failures = interleave(clients, batches, (k, c) -> c.uncontended("w:" + k, ttlMs,
                Math.max(1, iterations.get(k) / batches), acq.get(k), rel.get(k)), Integer::sum);
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (String k : clients.keySet()) out.put(k, latencyFigures(acq.get(k), rel.get(k), failures.get(k)));
        return out;
    }

    private static Map<String, Double> latencyFigures(Latencies a, Latencies r, int failures) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("acquire_p50_ms", a.percentileMs(50));
        m.put("acquire_p99_ms", a.percentileMs(99));
        m.put("acquire_p999_ms", a.percentileMs(99.9));
        m.put("release_p50_ms", r.percentileMs(50));
        m.put("release_p99_ms", r.percentileMs(99));
        m.put("release_p999_ms", r.percentileMs(99.9));
        m.put("samples", (double) a.count());
        m.put("failed_acquires", (double) failures);
        return m;
    }

    /**
     * W2 contended handoff: every system's contenders (see {@link Contenders}) run {@code warmupMs} unmeasured,
     * then {@code batches} interleaved batches of {@code millis / batches}: acquisitions/s, overlaps, token
     * regressions, errors and each client's share.
     */
    static Map<String, Map<String, Double>> contended(Map<String, Contenders> systems, long millis, int batches,
                                                      long warmupMs) throws Exception {
        for (Contenders c : systems.values()) c.run(warmupMs);
        Map<String, Contenders.Batch> all = interleave(systems, batches, (k, c) -> c.run(millis / batches),
                Contenders.Batch::plus);
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        all.forEach((k, b) -> {
            long total = 0, min = Long.MAX_VALUE, max = 0;
            for (long n : b.perClient()) {
                total += n;
                min = Math.min(min, n);
                max = Math.max(max, n);
            }
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("acquires_per_s", total / (b.elapsedNanos() / 1e9));
            m.put("acquires", (double) total);
            m.put("overlaps", (double) b.overlaps());
            m.put("token_regressions", (double) b.tokenRegressions());
            m.put("errors", (double) b.errors());
            m.put("min_client_share", total == 0 ? 0 : min / (double) total);
            m.put("max_client_share", total == 0 ? 0 : max / (double) total);
            m.put("fairness_min_over_max", max == 0 ? 0 : min / (double) max);
            out.put(k, m);
        });
        return out;
    }

    /**
     * W6 one instance, many concurrent callers on distinct resources: every system's callers (see {@link Callers})
     * run {@code warmupMs} unmeasured, then {@code batches} interleaved batches of {@code millis / batches}:
     * acquire+release pairs/s, pair and acquire p50/p99, failures.
     */
    static Map<String, Map<String, Double>> concurrent(Map<String, Callers> systems, long millis, int batches,
                                                       long warmupMs) throws Exception {
        for (Callers c : systems.values()) c.run(warmupMs);
        Map<String, Callers.Batch> all = interleave(systems, batches, (k, c) -> c.run(millis / batches),
                Callers.Batch::plus);
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        all.forEach((k, b) -> {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("pairs_per_s", b.pairs().count() / (b.elapsedNanos() / 1e9));
            m.put("pairs", (double) b.pairs().count());
            m.put("pair_p50_ms", b.pairs().percentileMs(50));
            m.put("pair_p99_ms", b.pairs().percentileMs(99));
            m.put("acquire_p50_ms", b.acquires().percentileMs(50));
            m.put("acquire_p99_ms", b.acquires().percentileMs(99));
            m.put("failures", (double) b.failures());
            out.put(k, m);
        });
        return out;
    }

    /**
     * W3 stalled minority: healthy W1 latency, then the same with {@code stalled} nodes SIGSTOPped. The nodes are
     * always resumed in {@code finally}, also when the workload throws.
     */
    static Map<String, Double> stalled(LockClient client, List<RedisNode> stalled, String resource, long ttlMs,
                                       int warmup, int n) {
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
