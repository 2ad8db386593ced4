package dev.redlock.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Median over runs, and the one table: figures per system, ratios to the floor and to Redisson, targets. */
final class Report {
    private Report() {}

    /** Median of every figure across runs (same workload, system and name). */
    static Map<String, Map<String, Map<String, Double>>> median(List<Map<String, Map<String, Map<String, Double>>>> runs) {
        Map<String, Map<String, Map<String, Double>>> out = new LinkedHashMap<>();
        for (Map<String, Map<String, Map<String, Double>>> run : runs) {
            run.forEach((w, systems) -> systems.forEach((s, figs) -> figs.forEach((k, v) -> {
                out.computeIfAbsent(w, x -> new LinkedHashMap<>()).computeIfAbsent(s, x -> new LinkedHashMap<>());
            })));
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

    private record Row(String label, Double redlock, Double nofence, Double redisson, String unit,
                       Double ratioFloor, Double ratioRedisson, String target, String verdict) {}

    static String table(Map<String, Map<String, Map<String, Double>>> r, Options o) {
        Function<String, Map<String, Map<String, Double>>> w = k -> r.getOrDefault(k, Map.of());
        Map<String, Double> rb = w.apply("floor").get("redis-benchmark");
        Map<String, Double> rf = w.apply("floor").get("redisson-set-nx-px");
        boolean haveC = rb != null && rb.get("acquire_p50_ms") != null;
        double floor = haveC ? rb.get("acquire_p50_ms") : rf.get("acquire_p50_ms");
        String floorName = haveC ? "redis-benchmark (C)" : "one Redisson client (Java; redis-benchmark not installed)";
        List<Row> rows = new ArrayList<>();
        if (haveC) rows.add(new Row("floor: SET NX PX on 1 node, redis-benchmark -c 1, p50", rb.get("acquire_p50_ms"),
                null, null, "ms", 1.0, null, "", ""));
        rows.add(new Row("floor: SET NX PX on 1 node, one Redisson client, p50", rf.get("acquire_p50_ms"), null, null,
                "ms", rf.get("acquire_p50_ms") / floor, null, "", ""));

        Map<String, Double> fan = w.apply("floor").get("redisson-fanout-5");
        if (fan != null) {
            rows.add(new Row("reference: naive Redisson fan-out, trivial EVALSHA to 5 nodes from the caller, 3 replies, p50",
                    fan.get("one_round_p50_ms"), null, null, "ms", fan.get("one_round_p50_ms") / floor, null, "",
                    "no lock logic; what a straightforward parallel Redisson client pays"));
            rows.add(new Row("reference: same, two rounds back to back (like a separate fencing phase), p50",
                    fan.get("two_rounds_p50_ms"), null, null, "ms", fan.get("two_rounds_p50_ms") / floor, null, "",
                    "no lock logic"));
        }
        Map<String, Map<String, Double>> w1 = w.apply("W1");
        for (String k : List.of("acquire_p50_ms", "acquire_p99_ms", "acquire_p999_ms", "release_p50_ms",
                "release_p99_ms", "release_p999_ms")) {
            Double a = get(w1, SideBySide.REDLOCK, k), nf = get(w1, SideBySide.NOFENCE, k), rs = get(w1, SideBySide.REDISSON, k);
            String target = "", verdict = "";
            if (k.endsWith("p50_ms") && a != null) {
                boolean ok = a <= 3 * floor && a < SideBySide.NODE_REDLOCK_P50_MS;
                boolean okNf = nf == null || nf <= 2 * floor;
                target = "fenced <= 3x floor and < 0.293 ms; unfenced <= 2x floor";
                double jf = rf.get("acquire_p50_ms");
                verdict = "fenced " + (ok ? "met" : "MISSED") + " (" + fmt(a / floor) + "x)"
                        + (nf == null ? "" : ", unfenced " + (okNf ? "met" : "MISSED") + " (" + fmt(nf / floor) + "x)")
                        + (haveC ? "; vs the Java floor: fenced " + fmt(a / jf) + "x" + (nf == null ? "" : ", unfenced "
                        + fmt(nf / jf) + "x") : "");
            }
            rows.add(new Row("W1 uncontended " + k.replace("_ms", "").replace('_', ' '), a, nf, rs, "ms",
                    div(a, floor), div(a, rs), target, verdict));
        }
        Map<String, Map<String, Double>> w2 = w.apply("W2");
        Double acq = get(w2, SideBySide.REDLOCK, "acquires_per_s");
        Double ov = get(w2, SideBySide.REDLOCK, "overlaps");
        rows.add(new Row("W2 contended acquisitions/s (" + o.integer("w2-clients") + " clients, 1 resource)", acq, null,
                get(w2, SideBySide.REDISSON, "acquires_per_s"), "1/s", null,
                div(acq, get(w2, SideBySide.REDISSON, "acquires_per_s")), ">= 2x 1422 = 2844, 0 overlaps",
                acq == null ? "" : (acq >= 2 * SideBySide.NODE_REDLOCK_ACQ_PER_S && ov != null && ov == 0 ? "met" : "MISSED")
                        + " (" + fmt(acq / SideBySide.NODE_REDLOCK_ACQ_PER_S) + "x node-redlock)"));
        rows.add(new Row("W2 overlaps / token regressions", ov, null, get(w2, SideBySide.REDISSON, "overlaps"), "count",
                null, null, "0", ov == null ? "" : (ov == 0 && get(w2, SideBySide.REDLOCK, "token_regressions") == 0
                ? "met" : "MISSED") + " (token regressions " + fmt(get(w2, SideBySide.REDLOCK, "token_regressions")) + ")"));
        rows.add(new Row("W2 per-client share min / max", get(w2, SideBySide.REDLOCK, "min_client_share"), null,
                get(w2, SideBySide.REDISSON, "min_client_share"), "share", null, null, "fair: reported", "max "
                + fmt(get(w2, SideBySide.REDLOCK, "max_client_share")) + " (Redisson max "
                + fmt(get(w2, SideBySide.REDISSON, "max_client_share")) + ")"));
        Map<String, Map<String, Double>> w3 = w.apply("W3");
        Double st = get(w3, SideBySide.REDLOCK, "stalled_acquire_p50_ms");
        rows.add(new Row("W3 acquire p50, 2 of 5 SIGSTOPped", st, null, get(w3, SideBySide.REDISSON, "stalled_acquire_p50_ms"),
                "ms", div(st, floor), div(st, get(w3, SideBySide.REDISSON, "stalled_acquire_p50_ms")), "", ""));
        Double ratio3 = get(w3, SideBySide.REDLOCK, "stalled_over_healthy");
        rows.add(new Row("W3 stalled p50 / healthy p50 (same run)", ratio3, null,
                get(w3, SideBySide.REDISSON, "stalled_over_healthy"), "x", null, null, "<= 1.2x",
                ratio3 == null ? "" : ratio3 <= 1.2 ? "met" : "MISSED"));
        Map<String, Map<String, Double>> w4 = w.apply("W4");
        for (int n : new int[] {3, 5, 7, 9}) {
            Double a = get(w4, SideBySide.REDLOCK, "acquire_p50_ms_n" + n);
            Double rs = get(w4, SideBySide.REDISSON, "acquire_p50_ms_n" + n);
            rows.add(new Row("W4 acquire p50, N=" + n, a, null, rs, "ms", div(a, floor), div(a, rs), "", ""));
        }
        Double n93 = get(w4, SideBySide.REDLOCK, "n9_over_n3");
        rows.add(new Row("W4 p50 N=9 / N=3", n93, null, get(w4, SideBySide.REDISSON, "n9_over_n3"), "x", null, null,
                "<= 1.5x", n93 == null ? "" : n93 <= 1.5 ? "met" : "MISSED"));

        Map<String, Map<String, Double>> w5 = w.apply("W5");
        if (w5.containsKey(SideBySide.REDLOCK)) {
            Map<String, Double> m = w5.get(SideBySide.REDLOCK);
            Double p99 = m.get("lateness_p99_ms");
            double ttl = m.get("ttl_ms");
            rows.add(new Row("W5 " + fmt(m.get("leases")) + " leases, watchdog: lateness p99 (ttl " + fmt(ttl) + " ms)",
                    p99, null, null, "ms", null, null, "< ttl/10 = " + fmt(ttl / 10) + " ms",
                    (p99 != null && p99 < ttl / 10 ? "met" : "MISSED") + " (p50 " + fmt(m.get("lateness_p50_ms"))
                            + ", max " + fmt(m.get("lateness_max_ms")) + ", " + fmt(m.get("renewals_observed"))
                            + " renewals, lost " + fmt(m.get("lost_leases")) + ")"));
            rows.add(new Row("W5 heap while holding / per lease", m.get("heap_holding_mb"), null, null, "MB", null, null,
                    "reported", fmt(m.get("heap_per_lease_bytes")) + " B/lease"));
            rows.add(new Row("W5 threads: before / max while holding", m.get("threads_max_while_holding"), null, null,
                    "threads", null, null, "bounded", "before " + fmt(m.get("threads_before"))));
        }
        StringBuilder sb = new StringBuilder();
        sb.append("floor = ").append(floorName).append(" p50 = ").append(fmt(floor)).append(" ms; load before/after in JSON\n\n");
        sb.append("| workload / figure | unit | redlock (fencing) | redlock (no fencing) | RedissonRedLock | redlock / floor | redlock / Redisson | target | verdict |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---|---|\n");
        for (Row x : rows) {
            sb.append("| ").append(x.label).append(" | ").append(x.unit).append(" | ").append(fmt(x.redlock))
                    .append(" | ").append(fmt(x.nofence)).append(" | ").append(fmt(x.redisson)).append(" | ")
                    .append(x.ratioFloor == null ? "" : fmt(x.ratioFloor) + "x").append(" | ")
                    .append(x.ratioRedisson == null ? "" : fmt(x.ratioRedisson) + "x").append(" | ")
                    .append(x.target).append(" | ").append(x.verdict).append(" |\n");
        }
        return sb.toString();
    }

    private static Double get(Map<String, Map<String, Double>> m, String sys, String k) {
        Map<String, Double> s = m.get(sys);
        return s == null ? null : s.get(k);
    }

    private static Double div(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    static String fmt(Double d) {
        if (d == null) return "";
        if (d.isNaN()) return "n/a";
        double a = Math.abs(d);
        if (a >= 100) return String.format("%.0f", d);
        if (a >= 10) return String.format("%.1f", d);
        if (a >= 1) return String.format("%.2f", d);
        return String.format("%.3f", d);
    }
}
