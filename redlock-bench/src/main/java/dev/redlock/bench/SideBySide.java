package dev.redlock.bench;

import com.google.gson.GsonBuilder;
import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisCluster;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The side-by-side bench: starts local redis-server processes (no Docker, loopback only) and runs the same
 * workloads on redlock and on Redisson's {@code RedissonRedLock}, with the single-node SET NX PX round trip
 * (redis-benchmark when installed, and one Redisson client) as the floor:
 * <ul>
 *   <li>W1 uncontended latency, acquire and release p50/p99/p999 (N=5);</li>
 *   <li>W2 contended handoff: 8 clients, one resource, acquisitions/s, overlaps, per-client share;</li>
 *   <li>W3 two of five nodes SIGSTOPped (always resumed in {@code finally}): acquire p50 against healthy;</li>
 *   <li>W4 acquire p50 at N = 3, 5, 7, 9;</li>
 *   <li>W5 (opt-in, {@code --only=W5}): 10,000 leases held at once with the watchdog renewing them: heap, threads,
 *       watchdog lateness.</li>
 * </ul>
 * Prints one table (figures, ratios to the floor and to Redisson, targets) and writes the same as JSON.
 *
 * <pre>
 * mvn -q -B -pl redlock-bench -am package -DskipTests
 * java -jar redlock-bench/target/redlock-bench.jar [--long | --smoke] [--runs=3] [--help]
 * </pre>
 */
public final class SideBySide {
    static final String REDLOCK = "redlock";
    static final String NOFENCE = "redlock-nofence";
    static final String REDISSON = "redisson";
    /** Reference figures from the issue (node-redlock on 5 x redis 7.0, 2 cores), the bar to beat. */
    static final double NODE_REDLOCK_P50_MS = 0.293;
    static final double NODE_REDLOCK_ACQ_PER_S = 1422;

    private SideBySide() {}

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Map<String, Object> result = run(o);
        System.out.println(result.get("table"));
        System.out.println("JSON: " + o.json().toAbsolutePath());
        System.exit(0);   // Redisson/Netty leave non-daemon threads behind for a few seconds
    }

    /** Runs everything {@code o} selects and writes the JSON; returns what it wrote. */
    static Map<String, Object> run(Options o) throws Exception {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("started", Instant.now().toString());
        meta.put("load_before", loadAverage());
        meta.put("cores", Runtime.getRuntime().availableProcessors());
        meta.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        meta.put("redis_server", RedisBinary.origin());
        meta.put("redis_benchmark", Floor.redisBenchmark() == null ? "not installed" : Floor.redisBenchmark());
        meta.put("options", o.asMap());
        int maxN = o.runs("W4") ? 9 : 5;
        List<Map<String, Map<String, Map<String, Double>>>> runs = new ArrayList<>();
        try (RedisCluster cluster = RedisCluster.start(maxN)) {
            markFresh(cluster);
            meta.put("redis_version", cluster.node(0).command("INFO", "server").lines()
                    .filter(l -> l.startsWith("redis_version")).findFirst().orElse("?"));
            for (int r = 0; r < o.integer("runs"); r++) {
                System.err.printf("run %d/%d (load %s)%n", r + 1, o.integer("runs"), loadAverage());
                runs.add(runOnce(o, cluster, r));
                cluster.heal();
                cluster.flushAll();
                markFresh(cluster);
            }
        }
        meta.put("load_after", loadAverage());
        Map<String, Map<String, Map<String, Double>>> median = Report.median(runs);
        String table = Report.table(median, o);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("meta", meta);
        out.put("results", median);
        out.put("runs", runs);
        out.put("table", table);
        write(o.json(), out);
        return out;
    }

    private static Map<String, Map<String, Map<String, Double>>> runOnce(Options o, RedisCluster cluster, int run)
            throws Exception {
        Map<String, Map<String, Map<String, Double>>> res = new LinkedHashMap<>();
        List<String> five = cluster.uris().subList(0, 5);
        int timeout = o.integer("node-timeout-ms");
        long ttl = o.integer("ttl-ms");
        String tag = "r" + run + ":";

        Map<String, Map<String, Double>> floors = new LinkedHashMap<>();
        step("floor");
        Map<String, Double> rb = Floor.byRedisBenchmark(cluster.node(0).port(), o.integer("floor-iterations"));
        if (!rb.isEmpty()) floors.put("redis-benchmark", rb);
        floors.put("redisson-set-nx-px", Floor.byRedisson(cluster.node(0).uri(), o.integer("floor-iterations") / 4,
                o.integer("floor-iterations")));
        floors.put("redisson-fanout-5", Floor.redissonFanout(five, o.integer("floor-iterations") / 8,
                o.integer("floor-iterations") / 4));
        res.put("floor", floors);

        if (o.runs("W1")) {
            step("W1 (systems interleaved)");
            List<Systems.LockSystem> made = new ArrayList<>();
            Map<String, LockClient> clients = new LinkedHashMap<>();
            Map<String, Integer> its = new LinkedHashMap<>();
            try {
                for (String sys : List.of(REDLOCK, NOFENCE, REDISSON)) {
                    if (!o.system(sys)) continue;
                    Systems.LockSystem s = system(sys, five, timeout, false);
                    made.add(s);
                    clients.put(sys, s.newClient());
                    its.put(sys, sys.equals(REDISSON) ? o.integer("redisson-iterations") : o.integer("iterations"));
                }
                res.put("W1", Workloads.interleaved(clients, its, ttl, o.integer("warmup"), 10));
            } finally {
                clients.values().forEach(LockClient::close);
                made.forEach(Systems.LockSystem::close);
            }
        }
        if (o.runs("W2")) {
            Map<String, Map<String, Double>> w2 = new LinkedHashMap<>();
            for (String sys : List.of(REDLOCK, REDISSON)) {
                if (!o.system(sys)) continue;
                step("W2 " + sys);
                try (Systems.LockSystem s = system(sys, five, timeout, true)) {
                    w2.put(sys, Workloads.contended(s::newClient, o.integer("w2-clients"), tag + "w2:" + sys, ttl,
                            o.integer("w2-seconds")));
                }
            }
            res.put("W2", w2);
        }
        if (o.runs("W3")) {
            Map<String, Map<String, Double>> w3 = new LinkedHashMap<>();
            for (String sys : List.of(REDLOCK, REDISSON)) {
                if (!o.system(sys)) continue;
                step("W3 " + sys);
                int n = sys.equals(REDISSON) ? o.integer("w3-redisson-iterations") : o.integer("w3-iterations");
                try (Systems.LockSystem s = system(sys, five, timeout, false); LockClient c = s.newClient()) {
                    w3.put(sys, Workloads.stalled(c, List.of(cluster.node(1), cluster.node(3)), tag + "w3:" + sys, ttl,
                            Math.min(o.integer("warmup"), n), n));
                } finally {
                    cluster.heal();
                }
            }
            res.put("W3", w3);
        }
        if (o.runs("W4")) {
            step("W4 (N and systems interleaved)");
            List<Systems.LockSystem> made = new ArrayList<>();
            Map<String, LockClient> clients = new LinkedHashMap<>();
            Map<String, Integer> its = new LinkedHashMap<>();
            try {
                for (String sys : List.of(REDLOCK, REDISSON)) {
                    if (!o.system(sys)) continue;
                    for (int n : new int[] {3, 5, 7, 9}) {
                        Systems.LockSystem s = system(sys, cluster.uris().subList(0, n), timeout, false);
                        made.add(s);
                        clients.put(sys + "@" + n, s.newClient());
                        its.put(sys + "@" + n, sys.equals(REDISSON) ? o.integer("w4-redisson-iterations")
                                : o.integer("w4-iterations"));
                    }
                }
                Map<String, Map<String, Double>> all = Workloads.interleaved(clients, its, ttl, o.integer("warmup"), 10);
                Map<String, Map<String, Double>> w4 = new LinkedHashMap<>();
                all.forEach((k, m) -> {
                    String sys = k.substring(0, k.indexOf('@'));
                    String n = k.substring(k.indexOf('@') + 1);
                    Map<String, Double> byN = w4.computeIfAbsent(sys, x -> new LinkedHashMap<>());
                    byN.put("acquire_p50_ms_n" + n, m.get("acquire_p50_ms"));
                    byN.put("acquire_p99_ms_n" + n, m.get("acquire_p99_ms"));
                });
                w4.values().forEach(byN -> byN.put("n9_over_n3", byN.get("acquire_p50_ms_n9") / byN.get("acquire_p50_ms_n3")));
                res.put("W4", w4);
            } finally {
                clients.values().forEach(LockClient::close);
                made.forEach(Systems.LockSystem::close);
            }
        }
        if (o.runs("W5")) {
            step("W5 redlock, " + o.integer("w5-leases") + " leases");
            res.put("W5", Map.of(REDLOCK, dev.redlock.WatchdogScale.run(five, o.integer("w5-leases"),
                    java.time.Duration.ofMillis(o.integer("w5-ttl-ms")), o.integer("w5-hold-s"))));
        }
        return res;
    }

    static Systems.LockSystem system(String sys, List<String> uris, int timeoutMs, boolean contended) {
        return switch (sys) {
            case REDLOCK -> Systems.redlock(REDLOCK, uris, true, timeoutMs, contended);
            case NOFENCE -> Systems.redlock(NOFENCE, uris, false, timeoutMs, contended);
            case REDISSON -> Systems.redissonRedLock(REDISSON, uris, timeoutMs);
            default -> throw new IllegalArgumentException("unknown system " + sys);
        };
    }

    private static void step(String what) {
        System.err.printf("  %-28s load %s%n", what, loadAverage());
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static void write(Path json, Map<String, Object> out) throws IOException {
        if (json.getParent() != null) Files.createDirectories(json.getParent());
        Files.writeString(json, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues()
                .create().toJson(out));
    }

    /** Marks brand-new nodes fresh (no restart quarantine), as {@code Redlock.markNodesFresh()} does. */
    static void markFresh(RedisCluster cluster) {
        try (Redlock r = Redlock.create(RedlockConfig.builder().nodes(cluster.uris()).build())) {
            r.markNodesFresh();
        }
    }
}
