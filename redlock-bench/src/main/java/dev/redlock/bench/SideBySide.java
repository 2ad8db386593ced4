package dev.redlock.bench;

import com.google.gson.GsonBuilder;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisCluster;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The side-by-side bench: starts local redis-server processes (no Docker, loopback only) and runs the same
 * workloads, on the same nodes with the same TTL and node timeout, on redlock, node-redlock (when node is on the
 * PATH; see {@link NodeDriver}) and Redisson's {@code RedissonRedLock}, with the single-node SET NX PX round trip
 * (redis-benchmark when installed, one Redisson client, one ioredis client) as the floor. Every system is warmed
 * up with {@code --warmup} acquire+release pairs (JIT) before anything is measured, and every client again before
 * it is measured; systems measured together run in interleaved batches.
 * <ul>
 *   <li>W1 uncontended latency, acquire and release p50/p99/p999 (N=5);</li>
 *   <li>W2 contended handoff: 8 clients, one resource, each waiting in its library's own acquire: acquisitions/s,
 *       overlaps, token regressions, per-client share;</li>
 *   <li>W3 two of five nodes SIGSTOPped (always resumed in {@code finally}): acquire p50 against healthy;</li>
 *   <li>W4 acquire p50 at N = 3, 5, 7, 9;</li>
 *   <li>W5 (opt-in, {@code --only=W5}): 10,000 leases held at once with the watchdog renewing them: heap, threads,
 *       watchdog lateness;</li>
 *   <li>W6 one instance, 1/8/64/256 concurrent callers on distinct resources: acquire+release pairs/s, p50/p99,
 *       failures, and the JVM heap it ran in.</li>
 * </ul>
 * Prints one table (medians over {@code --runs}, the load average at the start and the end, the targets) and writes
 * the same as JSON and Markdown.
 *
 * <pre>
 * mvn -q -B -pl redlock-bench -am package -DskipTests
 * java -jar redlock-bench/target/redlock-bench.jar [--long | --smoke] [--runs=3] [--help]
 * </pre>
 */
public final class SideBySide {
    static final String REDLOCK = "redlock";
    static final String NOFENCE = "redlock-nofence";
    static final String ASYNC = "redlock-async";
    static final String NODE = "node-redlock";
    static final String REDISSON = "redisson";

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

    /** Runs everything {@code o} selects and writes the JSON (and the table beside it, .md); returns what it wrote. */
    static Map<String, Object> run(Options o) throws Exception {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("started", Instant.now().toString());
        meta.put("load_before", loadAverage());
        meta.put("cores", Runtime.getRuntime().availableProcessors());
        meta.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        meta.put("max_heap_mb", Runtime.getRuntime().maxMemory() / (1024.0 * 1024));
        meta.put("redlock_core_commit", coreCommit());
        meta.put("redis_server", RedisBinary.origin());
        meta.put("redis_benchmark", Floor.redisBenchmark() == null ? "not installed" : Floor.redisBenchmark());
        meta.put("options", o.asMap());
        NodeDriver node = startNode(o, meta);
        int maxN = o.runs("W4") ? 9 : 5;
        List<Map<String, Map<String, Map<String, Double>>>> runs = new ArrayList<>();
        try (RedisCluster cluster = RedisCluster.start(maxN)) {
            markFresh(cluster);
            meta.put("redis_version", cluster.node(0).info("server", "redis_version"));
            warmUp(o, cluster, node);
            for (int r = 0; r < o.integer("runs"); r++) {
                System.err.printf("run %d/%d (load %s)%n", r + 1, o.integer("runs"), loadAverage());
                runs.add(runOnce(o, cluster, node, r));
                cluster.heal();
                cluster.flushAll();
                markFresh(cluster);
            }
        } finally {
            if (node != null) node.close();
        }
        meta.put("load_after", loadAverage());
        Map<String, Map<String, Map<String, Double>>> median = Report.median(runs);
        String table = Report.table(median, o, meta);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("meta", meta);
        out.put("results", median);
        out.put("runs", runs);
        out.put("table", table);
        write(o.json(), out);
        return out;
    }

    /** The node-redlock driver, or null (with the reason in {@code meta} and on stderr) when it cannot run. */
    private static NodeDriver startNode(Options o, Map<String, Object> meta) throws InterruptedException {
        if (!o.system(NODE)) return null;
        String why = NodeDriver.unavailable();
        if (why == null) {
            try {
                NodeDriver d = NodeDriver.start(o.path("node-dir"));
                meta.put("node_redlock", d.versions());
                return d;
            } catch (IOException e) {
                why = e.getMessage();
            }
        }
        System.err.println("node-redlock skipped: " + why);
        meta.put("node_redlock", "skipped: " + why);
        return null;
    }

    /** The selected systems among {@code candidates}, node-redlock only when its driver runs. */
    private static List<String> selected(Options o, NodeDriver node, String... candidates) {
        List<String> out = new ArrayList<>();
        for (String s : candidates) if (o.system(s) && (!s.equals(NODE) || node != null)) out.add(s);
        return out;
    }

    /** JIT warm-up, once per process: {@code --warmup} acquire+release pairs of every system on 5 nodes. */
    private static void warmUp(Options o, RedisCluster cluster, NodeDriver node) {
        List<String> five = cluster.uris().subList(0, 5);
        for (String sys : selected(o, node, REDLOCK, NOFENCE, NODE, REDISSON)) {
            step("warm-up " + sys + " x" + o.integer("warmup"));
            try (LockSystem s = system(sys, five, o.integer("node-timeout-ms"), false, node);
                 LockClient c = s.newClient()) {
                c.uncontended("warmup:" + sys, o.integer("ttl-ms"), o.integer("warmup"), null, null);
            }
        }
    }

    private static Map<String, Map<String, Map<String, Double>>> runOnce(Options o, RedisCluster cluster,
                                                                        NodeDriver node, int run) throws Exception {
        Map<String, Map<String, Map<String, Double>>> res = new LinkedHashMap<>();
        List<String> five = cluster.uris().subList(0, 5);
        int timeout = o.integer("node-timeout-ms");
        long ttl = o.integer("ttl-ms");
        int clientWarmup = o.integer("client-warmup");
        String tag = "r" + run + ":";

        Map<String, Map<String, Double>> floors = new LinkedHashMap<>();
        step("floor");
        int fi = o.integer("floor-iterations");
        Map<String, Double> rb = Floor.byRedisBenchmark(cluster.node(0).port(), fi);
        if (!rb.isEmpty()) floors.put("redis-benchmark", rb);
        floors.put("redisson-set-nx-px", Floor.byRedisson(cluster.node(0).uri(), fi / 4, fi));
        if (node != null) floors.put("ioredis-set-nx-px", NodeRedlock.floor(node, cluster.node(0).uri(), fi / 4, fi));
        floors.put("redisson-fanout-5", Floor.redissonFanout(five, fi / 8, fi / 4));
        res.put("floor", floors);

        if (o.runs("W1")) {
            step("W1 (systems interleaved)");
            List<LockSystem> made = new ArrayList<>();
            Map<String, LockClient> clients = new LinkedHashMap<>();
            Map<String, Integer> its = new LinkedHashMap<>();
            try {
                for (String sys : selected(o, node, REDLOCK, NOFENCE, ASYNC, NODE, REDISSON)) {
                    LockSystem s = system(sys, five, timeout, false, node);
                    made.add(s);
                    clients.put(sys, s.newClient());
                    its.put(sys, sys.equals(REDISSON) ? o.integer("redisson-iterations") : o.integer("iterations"));
                }
                res.put("W1", Workloads.interleaved(clients, its, ttl, clientWarmup, 10));
            } finally {
                clients.values().forEach(LockClient::close);
                made.forEach(LockSystem::close);
            }
        }
        if (o.runs("W2")) {
            step("W2 (systems interleaved)");
            List<LockSystem> made = new ArrayList<>();
            Map<String, Contenders> contenders = new LinkedHashMap<>();
            try {
                for (String sys : selected(o, node, REDLOCK, ASYNC, NODE, REDISSON)) {
                    LockSystem s = system(sys, five, timeout, true, node);
                    made.add(s);
                    contenders.put(sys, s.contenders(o.integer("w2-clients"), tag + "w2:" + sys, ttl));
                }
                res.put("W2", Workloads.contended(contenders, o.integer("w2-ms"), o.integer("w2-batches"),
                        o.integer("batch-warmup-ms")));
            } finally {
                contenders.values().forEach(Contenders::close);
                made.forEach(LockSystem::close);
            }
        }
        if (o.runs("W3")) {
            Map<String, Map<String, Double>> w3 = new LinkedHashMap<>();
            for (String sys : selected(o, node, REDLOCK, ASYNC, NODE, REDISSON)) {
                step("W3 " + sys);
                int n = sys.equals(REDISSON) ? o.integer("w3-redisson-iterations") : o.integer("w3-iterations");
                try (LockSystem s = system(sys, five, timeout, false, node); LockClient c = s.newClient()) {
                    w3.put(sys, Workloads.stalled(c, List.of(cluster.node(1), cluster.node(3)), tag + "w3:" + sys, ttl,
                            Math.min(clientWarmup, n), n));
                } finally {
                    cluster.heal();
                }
            }
            res.put("W3", w3);
        }
        if (o.runs("W4")) {
            step("W4 (N and systems interleaved)");
            List<LockSystem> made = new ArrayList<>();
            Map<String, LockClient> clients = new LinkedHashMap<>();
            Map<String, Integer> its = new LinkedHashMap<>();
            try {
                for (String sys : selected(o, node, REDLOCK, NODE, REDISSON)) {
                    for (int n : new int[] {3, 5, 7, 9}) {
                        LockSystem s = system(sys, cluster.uris().subList(0, n), timeout, false, node);
                        made.add(s);
                        clients.put(sys + "@" + n, s.newClient());
                        its.put(sys + "@" + n, sys.equals(REDISSON) ? o.integer("w4-redisson-iterations")
                                : o.integer("w4-iterations"));
                    }
                }
                Map<String, Map<String, Double>> all = Workloads.interleaved(clients, its, ttl, clientWarmup, 10);
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
                made.forEach(LockSystem::close);
            }
        }
        if (o.runs("W5")) {
            step("W5 redlock, " + o.integer("w5-leases") + " leases");
            res.put("W5", Map.of(REDLOCK, WatchdogScale.run(five, o.integer("w5-leases"),
                    Duration.ofMillis(o.integer("w5-ttl-ms")), o.integer("w5-hold-s"))));
        }
        if (o.runs("W6")) {
            for (int callers : o.integers("w6-callers")) {
                step("W6 " + callers + " callers (systems interleaved)");
                res.put("W6@" + callers, concurrent(o, five, node, callers, tag + "w6:" + callers + ":"));
            }
        }
        return res;
    }

    /**
     * W6 at one caller count; besides each system's figures, the JVM's heap: its maximum and the peak used while
     * the in-JVM systems ran (their sum over the heap pools: an upper bound), and whether it ran out.
     */
    private static Map<String, Map<String, Double>> concurrent(Options o, List<String> five, NodeDriver node,
                                                               int callers, String prefix) throws Exception {
        List<LockSystem> made = new ArrayList<>();
        Map<String, Callers> all = new LinkedHashMap<>();
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        Map<String, Double> heap = new LinkedHashMap<>();
        heap.put("max_heap_mb", Runtime.getRuntime().maxMemory() / (1024.0 * 1024));
        System.gc();
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
        try {
            for (String sys : selected(o, node, REDLOCK, ASYNC, NODE, REDISSON)) {
                LockSystem s = system(sys, five, o.integer("node-timeout-ms"), false, node);
                made.add(s);
                all.put(sys, s.callers(callers, prefix + sys + ":", o.integer("ttl-ms")));
            }
            out.putAll(Workloads.concurrent(all, o.integer("w6-ms"), o.integer("w6-batches"), o.integer("batch-warmup-ms")));
            heap.put("out_of_memory", 0.0);
        } catch (OutOfMemoryError e) {
            out.clear();
            heap.put("out_of_memory", 1.0);
            System.err.println("W6 " + callers + " callers ran out of heap: " + e);
        } finally {
            all.values().forEach(Callers::close);
            made.forEach(LockSystem::close);
        }
        heap.put("peak_heap_used_mb", ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).mapToLong(p -> p.getPeakUsage().getUsed()).sum()
                / (1024.0 * 1024));
        out.put("jvm", heap);
        return out;
    }

    /** {@code contended}: W2, where a client waits in its library's own acquire (retries, wake-ups). */
    static LockSystem system(String sys, List<String> uris, int timeoutMs, boolean contended, NodeDriver node) {
        return switch (sys) {
            case REDLOCK -> Systems.redlock(REDLOCK, uris, true, timeoutMs, contended);
            case NOFENCE -> Systems.redlock(NOFENCE, uris, false, timeoutMs, contended);
            case ASYNC -> Systems.redlockAsync(ASYNC, uris, timeoutMs);
            case REDISSON -> Systems.redissonRedLock(REDISSON, uris, timeoutMs);
            case NODE -> new NodeRedlock(node, NODE, uris, timeoutMs, contended ? 10_000 : 0);
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

    /**
     * The {@code redlock-core} this run measures: {@code HEAD} of the working directory and the last commit that
     * changed {@code redlock-core}, marked when it has uncommitted changes; "unknown" outside a git work tree.
     */
    static String coreCommit() {
        try {
            String head = git("rev-parse", "--short=12", "HEAD");
            if (head.isEmpty()) return "unknown";
            String core = git("log", "-1", "--format=%h", "--abbrev=12", "--", "redlock-core");
            String dirty = git("status", "--porcelain", "--", "redlock-core");
            return "at " + head + " (last changed in " + core + ")"
                    + (dirty.isEmpty() ? "" : ", with uncommitted changes in redlock-core");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return p.waitFor() == 0 ? out : "";
    }

    /** Writes {@code out} as JSON to {@code json}, and its table beside it ({@code .md}). */
    private static void write(Path json, Map<String, Object> out) throws IOException {
        if (json.getParent() != null) Files.createDirectories(json.getParent());
        Files.writeString(json, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues()
                .create().toJson(out));
        String name = json.getFileName().toString();
        Path md = json.resolveSibling((name.endsWith(".json") ? name.substring(0, name.length() - 5) : name) + ".md");
        Files.writeString(md, (String) out.get("table"));
    }

    /** Marks brand-new nodes fresh (no restart quarantine), as {@code Redlock.markNodesFresh()} does. */
    static void markFresh(RedisCluster cluster) {
        try (Redlock r = Redlock.create(RedlockConfig.builder().nodes(cluster.uris()).build())) {
            r.markNodesFresh();
        }
    }
}
