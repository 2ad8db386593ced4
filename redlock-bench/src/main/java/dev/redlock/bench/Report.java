package dev.redlock.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Median over runs, and the one table: the run's context (redlock-core commit, load average at the start and the
 * end), the floors, then every figure per system side by side with the ratio redlock / node-redlock, the targets
 * the README states and whether each was met.
 */
final class Report {
    private static final String R = SideBySide.REDLOCK;
    private static final String NF = SideBySide.NOFENCE;
    private static final String NODE = SideBySide.NODE;
    private static final String RS = SideBySide.REDISSON;
    private static final String ASYNC = SideBySide.ASYNC;
    private static final String NO_NODE = "n/a (node-redlock not run)";

    private Report() {}

    /** Median of every figure across runs (same workload, system and name). */
    static Map<String, Map<String, Map<String, Double>>> median(List<Map<String, Map<String, Map<String, Double>>>> runs) {
        Map<String, Map<String, Map<String, Double>>> out = new LinkedHashMap<>();
        for (Map<String, Map<String, Map<String, Double>>> run : runs) {
            run.forEach((w, systems) -> systems.forEach((s, figs) ->
                    out.computeIfAbsent(w, x -> new LinkedHashMap<>()).computeIfAbsent(s, x -> new LinkedHashMap<>())));
        }
        out.forEach((w, systems) -> systems.forEach((s, figs) -> {
            Map<String, List<Double>> all = new LinkedHashMap<>();
            for (var run : runs) {
                var f = run.getOrDefault(w, Map.of()).getOrDefault(s, Map.of());
                f.forEach((k, v) -> all.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            }
            all.forEach((k, vs) -> {
                double[] a = vs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                figs.put(k, a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2);
            });
        }));
        return out;
    }

    /** One row: a figure of every system, the ratio redlock / node-redlock, the target and the verdict. */
    private record Row(String label, String unit, Double redlock, Double nofence, Double node, Double redisson,
                       Double ratio, String target, String verdict) {}

    private static final class Rows {
        final List<Row> list = new ArrayList<>();
        final Map<String, Map<String, Map<String, Double>>> r;

        Rows(Map<String, Map<String, Map<String, Double>>> r) {
            this.r = r;
        }

        Double get(String workload, String sys, String k) {
            Map<String, Double> s = r.getOrDefault(workload, Map.of()).get(sys);
            return s == null ? null : s.get(k);
        }

        /** A row of figure {@code k} of {@code workload} for every system. */
        void add(String label, String unit, String workload, String k, String target, Verdict verdict) {
            add(label, unit, workload, k, target, verdict, R, true);
        }

        /**
         * As {@link #add}, with system {@code sys}'s figure in the redlock column (W6's async callers); the other
         * columns only when {@code others}.
         */
        void add(String label, String unit, String workload, String k, String target, Verdict verdict, String sys,
                 boolean others) {
            Double a = get(workload, sys, k), node = get(workload, NODE, k);
            Double ratio = unit.equals("ms") || unit.equals("1/s") ? div(a, node) : null;
            list.add(new Row(label, unit, a, others ? get(workload, NF, k) : null, node,
                    others ? get(workload, RS, k) : null, ratio, target,
                    verdict == null || a == null ? "" : verdict.of(a, node)));
        }
    }

    @FunctionalInterface
    private interface Verdict {
        String of(double redlock, Double node);
    }

    static String table(Map<String, Map<String, Map<String, Double>>> r, Options o, Map<String, Object> meta) {
        StringBuilder sb = new StringBuilder();
        sb.append("redlock-core ").append(meta.get("redlock_core_commit")).append("; load average at the start ")
                .append(meta.get("load_before")).append(", at the end ").append(meta.get("load_after")).append("; ")
                .append(meta.get("cores")).append(" cores; ").append(meta.get("java")).append(", max heap ")
                .append(fmt((Double) meta.get("max_heap_mb"))).append(" MB; Redis ").append(meta.get("redis_version"))
                .append(" (").append(meta.get("redis_server")).append("); node-redlock: ").append(meta.get("node_redlock"))
                .append("; median of ").append(o.integer("runs")).append(" run(s)\n\n");
        floors(sb, r.getOrDefault("floor", Map.of()));

        Rows rows = new Rows(r);
        Verdict notAbove = (a, node) -> node == null ? NO_NODE : verdict(a <= node, fmt(a / node) + "x");
        rows.add("W1 uncontended acquire p50", "ms", "W1", "acquire_p50_ms", "fenced <= node-redlock", notAbove);
        rows.add("W1 uncontended acquire p99", "ms", "W1", "acquire_p99_ms", "", null);
        rows.add("W1 uncontended acquire p999", "ms", "W1", "acquire_p999_ms", "", null);
        rows.add("W1 uncontended release p50", "ms", "W1", "release_p50_ms", "fenced <= node-redlock", notAbove);
        rows.add("W1 uncontended release p99", "ms", "W1", "release_p99_ms", "", null);
        rows.add("W1 uncontended release p999", "ms", "W1", "release_p999_ms", "", null);
        rows.add("W1 failed pairs", "count", "W1", "failed_acquires", "", null);
        if (get(r, "W1", ASYNC) != null) {
            String how = "W1 async caller (acquireAsync + releaseAsync chained on the I/O thread, as node-redlock's loop)";
            rows.add(how + ": acquire p50", "ms", "W1", "acquire_p50_ms", "reported", null, ASYNC, false);
            rows.add(how + ": release p50", "ms", "W1", "release_p50_ms", "reported", null, ASYNC, false);
            rows.add(how + ": acquire p99", "ms", "W1", "acquire_p99_ms", "", null, ASYNC, false);
        }

        Double ov = rows.get("W2", R, "overlaps"), reg = rows.get("W2", R, "token_regressions");
        boolean safe = ov != null && ov == 0 && reg != null && reg == 0;
        rows.add("W2 contended acquisitions/s (" + o.integer("w2-clients") + " clients, 1 resource, library's own wait)",
                "1/s", "W2", "acquires_per_s", ">= node-redlock, 0 overlaps, 0 token regressions",
                (a, node) -> node == null ? NO_NODE : verdict(a >= node && safe, fmt(a / node) + "x"
                        + (safe ? "" : ", overlaps or token regressions")));
        rows.add("W2 overlaps", "count", "W2", "overlaps", "0", (a, node) -> verdict(a == 0, ""));
        rows.list.add(new Row("W2 token regressions (only redlock issues tokens)", "count", reg, null, null, null, null,
                "0", reg == null ? "" : verdict(reg == 0, "")));
        rows.add("W2 acquire/release errors", "count", "W2", "errors", "", null);
        rows.add("W2 smallest client share (equal = " + fmt(1.0 / o.integer("w2-clients")) + ")", "share", "W2",
                "min_client_share", "reported", null);
        rows.add("W2 largest client share", "share", "W2", "max_client_share", "reported", null);
        if (get(r, "W2", ASYNC) != null) {
            String how = "W2 async clients (acquireAsync + releaseAsync, the library's own wait)";
            rows.add(how + ": acquisitions/s", "1/s", "W2", "acquires_per_s", "reported", null, ASYNC, false);
            rows.add(how + ": overlaps", "count", "W2", "overlaps", "0", (a, node) -> verdict(a == 0, ""), ASYNC, false);
            Double asyncReg = rows.get("W2", ASYNC, "token_regressions");
            rows.list.add(new Row(how + ": token regressions", "count", asyncReg, null, null, null, null, "0",
                    asyncReg == null ? "" : verdict(asyncReg == 0, "")));
            rows.add(how + ": smallest client share", "share", "W2", "min_client_share", "reported", null, ASYNC, false);
        }

        Double healthy = rows.get("W3", R, "healthy_acquire_p50_ms");
        rows.add("W3 acquire p50, healthy (same process, just before)", "ms", "W3", "healthy_acquire_p50_ms", "", null);
        rows.add("W3 acquire p50, 2 of 5 SIGSTOPped", "ms", "W3", "stalled_acquire_p50_ms",
                "<= 1.2x healthy and <= node-redlock's", (a, node) -> {
                    boolean own = healthy != null && a <= 1.2 * healthy;
                    if (node == null) return verdict(own, fmt(a / healthy) + "x healthy") + "; " + NO_NODE;
                    return verdict(own && a <= node, fmt(a / healthy) + "x healthy, " + fmt(a / node) + "x node-redlock");
                });
        rows.add("W3 acquire p99, 2 of 5 SIGSTOPped", "ms", "W3", "stalled_acquire_p99_ms", "", null);
        rows.add("W3 failed pairs while stalled", "count", "W3", "stalled_failed_acquires", "", null);
        if (get(r, "W3", ASYNC) != null) {
            Double asyncHealthy = rows.get("W3", ASYNC, "healthy_acquire_p50_ms");
            String how = "W3 async caller (as W1's)";
            rows.add(how + ": acquire p50, healthy", "ms", "W3", "healthy_acquire_p50_ms", "", null, ASYNC, false);
            rows.add(how + ": acquire p50, 2 of 5 SIGSTOPped", "ms", "W3", "stalled_acquire_p50_ms", "reported",
                    (a, node) -> fmt(a / asyncHealthy) + "x healthy" + (node == null ? "" : ", " + fmt(a / node)
                            + "x node-redlock"), ASYNC, false);
            rows.add(how + ": failed pairs while stalled", "count", "W3", "stalled_failed_acquires", "", null, ASYNC, false);
        }

        for (int n : new int[] {3, 5, 7, 9}) {
            rows.add("W4 acquire p50, N=" + n, "ms", "W4", "acquire_p50_ms_n" + n, "", null);
        }
        rows.add("W4 acquire p50 N=9 / N=3", "x", "W4", "n9_over_n3", "<= 2.0", (a, node) -> verdict(a <= 2.0, ""));

        for (int c : o.integers("w6-callers")) {
            String w = "W6@" + c;
            if (!r.containsKey(w)) continue;
            Double failures = rows.get(w, R, "failures");
            boolean none = failures != null && failures == 0;
            rows.add("W6 " + c + " callers, one instance: acquire+release pairs/s", "1/s", w, "pairs_per_s",
                    c == 64 ? ">= 2x node-redlock, 0 failures" : "",
                    c != 64 ? null : (a, node) -> node == null ? NO_NODE
                            : verdict(a > 0 && a >= 2 * node && none, fmt(div(a, node)) + "x, " + fmt(failures) + " failures"));
            rows.add("W6 " + c + " callers: pair p50", "ms", w, "pair_p50_ms", "", null);
            rows.add("W6 " + c + " callers: pair p99", "ms", w, "pair_p99_ms", c == 256 ? "reported" : "", null);
            rows.add("W6 " + c + " callers: failures", "count", w, "failures", c == 256 ? "0" : "",
                    c != 256 ? null : (a, node) -> verdict(a == 0, ""));
            if (get(r, w, ASYNC) == null) continue;
            Double asyncFailures = rows.get(w, ASYNC, "failures");
            boolean asyncNone = asyncFailures != null && asyncFailures == 0;
            String how = "W6 " + c + " async callers (acquireAsync + releaseAsync)";
            rows.add(how + ": pairs/s", "1/s", w, "pairs_per_s", c == 64 ? ">= 2x node-redlock, 0 failures" : "",
                    c != 64 ? null : (a, node) -> node == null ? NO_NODE
                            : verdict(a > 0 && a >= 2 * node && asyncNone,
                            fmt(div(a, node)) + "x, " + fmt(asyncFailures) + " failures"), ASYNC, false);
            rows.add(how + ": pair p50", "ms", w, "pair_p50_ms", "", null, ASYNC, false);
            rows.add(how + ": pair p99", "ms", w, "pair_p99_ms", c == 256 ? "reported" : "", null, ASYNC, false);
            rows.add(how + ": failures", "count", w, "failures", c == 256 ? "0" : "",
                    c != 256 ? null : (a, node) -> verdict(a == 0, ""), ASYNC, false);
        }
        heap(rows, r);
        watchdog(rows, r);

        sb.append("| workload / figure | unit | redlock (fenced) | redlock (unfenced) | node-redlock | RedissonRedLock "
                + "| redlock / node-redlock | target | verdict |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---|---|\n");
        for (Row x : rows.list) {
            sb.append("| ").append(x.label()).append(" | ").append(x.unit()).append(" | ").append(fmt(x.redlock()))
                    .append(" | ").append(fmt(x.nofence())).append(" | ").append(fmt(x.node())).append(" | ")
                    .append(fmt(x.redisson())).append(" | ").append(x.ratio() == null ? "" : fmt(x.ratio()) + "x")
                    .append(" | ").append(x.target()).append(" | ").append(x.verdict()).append(" |\n");
        }
        return sb.toString();
    }

    private static Map<String, Double> get(Map<String, Map<String, Map<String, Double>>> r, String w, String sys) {
        return r.getOrDefault(w, Map.of()).get(sys);
    }

    private static void floors(StringBuilder sb, Map<String, Map<String, Double>> f) {
        sb.append("| floor: one SET NX PX round trip to one node | p50 ms | p99 ms |\n|---|---:|---:|\n");
        floor(sb, "redis-benchmark -c 1 (C)", f.get("redis-benchmark"), "acquire_p50_ms", "acquire_p99_ms");
        floor(sb, "one Redisson client (Java)", f.get("redisson-set-nx-px"), "acquire_p50_ms", "acquire_p99_ms");
        floor(sb, "one ioredis client (Node)", f.get("ioredis-set-nx-px"), "acquire_p50_ms", "acquire_p99_ms");
        Map<String, Double> fan = f.get("redisson-fanout-5");
        if (fan != null) {
            sb.append("| reference: trivial EVALSHA from Redisson to 5 nodes, 3 replies, no lock logic | ")
                    .append(fmt(fan.get("one_round_p50_ms"))).append(" | |\n");
            sb.append("| reference: the same, two rounds back to back | ").append(fmt(fan.get("two_rounds_p50_ms")))
                    .append(" | |\n");
        }
        sb.append('\n');
    }

    private static void floor(StringBuilder sb, String label, Map<String, Double> m, String p50, String p99) {
        if (m == null || m.get(p50) == null) return;
        sb.append("| ").append(label).append(" | ").append(fmt(m.get(p50))).append(" | ").append(fmt(m.get(p99)))
                .append(" |\n");
    }

    /** W6 at 64 callers must run in a 256 MB heap: met only when this JVM's maximum heap was at most that. */
    private static void heap(Rows rows, Map<String, Map<String, Map<String, Double>>> r) {
        Map<String, Double> jvm = r.getOrDefault("W6@64", Map.of()).get("jvm");
        if (jvm == null) return;
        double max = jvm.get("max_heap_mb");
        boolean oom = jvm.get("out_of_memory") != 0;
        Double failures = rows.get("W6@64", R, "failures");
        String verdict = oom ? "MISSED: out of memory"
                : max <= 256.5 ? verdict(failures != null && failures == 0, "ran in a " + fmt(max) + " MB heap, "
                + fmt(failures) + " failures")
                : "not checked here: max heap " + fmt(max) + " MB (run it with java -Xmx256m)";
        rows.list.add(new Row("W6 64 callers: peak heap used (every in-JVM system of the run; max " + fmt(max) + " MB)",
                "MB", jvm.get("peak_heap_used_mb"), null, null, null, null, "runs in -Xmx256m", verdict));
    }

    private static void watchdog(Rows rows, Map<String, Map<String, Map<String, Double>>> r) {
        Map<String, Double> m = r.getOrDefault("W5", Map.of()).get(R);
        if (m == null) return;
        Double p99 = m.get("lateness_p99_ms");
        double ttl = m.get("ttl_ms");
        rows.list.add(new Row("W5 " + fmt(m.get("leases")) + " leases, watchdog: lateness p99 (ttl " + fmt(ttl) + " ms)",
                "ms", p99, null, null, null, null, "< ttl/10 = " + fmt(ttl / 10) + " ms",
                verdict(p99 != null && p99 < ttl / 10, "p50 " + fmt(m.get("lateness_p50_ms")) + ", max "
                        + fmt(m.get("lateness_max_ms")) + ", " + fmt(m.get("renewals_observed")) + " renewals, lost "
                        + fmt(m.get("lost_leases")))));
        rows.list.add(new Row("W5 heap while holding", "MB", m.get("heap_holding_mb"), null, null, null, null,
                "reported", fmt(m.get("heap_per_lease_bytes")) + " B/lease"));
        rows.list.add(new Row("W5 threads: max while holding", "threads", m.get("threads_max_while_holding"), null,
                null, null, null, "bounded", "before " + fmt(m.get("threads_before"))));
    }

    private static String verdict(boolean met, String detail) {
        return (met ? "met" : "MISSED") + (detail.isEmpty() ? "" : " (" + detail + ")");
    }

    private static Double div(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    static String fmt(Double d) {
        if (d == null) return "";
        if (d.isNaN()) return "n/a";
        double a = Math.abs(d);
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", d);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", d);
        if (a >= 1) return String.format(Locale.ROOT, "%.2f", d);
        return String.format(Locale.ROOT, "%.3f", d);
    }
}
