package dev.redlock.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Flags of the side-by-side bench, {@code --name=value}. Defaults keep a run near 2-3 minutes on 2 cores;
 * {@code --long} multiplies iteration counts and durations by 5, {@code --smoke} shrinks them to seconds.
 */
final class Options {
    private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("warmup", "8000");          // warm-up acquire+release per client (JIT), at most 2x its iterations
        DEFAULTS.put("iterations", "5000");      // W1 measured acquire+release, redlock
        DEFAULTS.put("redisson-iterations", "1500"); // W1 measured, RedissonRedLock (it is ~5x slower)
        DEFAULTS.put("floor-iterations", "20000");   // single-node SET NX PX round trips (both floors)
        DEFAULTS.put("w2-seconds", "10");        // W2 duration per system
        DEFAULTS.put("w2-clients", "8");
        DEFAULTS.put("w3-iterations", "2000");   // W3 redlock, healthy then with 2 of 5 SIGSTOPped
        DEFAULTS.put("w3-redisson-iterations", "15");
        DEFAULTS.put("w4-iterations", "2000");   // W4 redlock per N
        DEFAULTS.put("w4-redisson-iterations", "400");
        DEFAULTS.put("node-timeout-ms", "100");  // both systems: per-node command timeout
        DEFAULTS.put("ttl-ms", "10000");
        DEFAULTS.put("runs", "1");               // repeat everything; the table shows the median of each figure
        DEFAULTS.put("only", "W1,W2,W3,W4");
        DEFAULTS.put("systems", "redlock,redlock-nofence,redisson");
        DEFAULTS.put("json", "redlock-bench/target/bench.json");
        DEFAULTS.put("w5-leases", "10000");      // W5 (opt-in: --only=W5): leases held at once, watchdog on
        DEFAULTS.put("w5-ttl-ms", "15000");
        DEFAULTS.put("w5-hold-s", "35");
    }

    private final Map<String, String> values;

    private Options(Map<String, String> values) {
        this.values = values;
    }

    static Options parse(String... args) {
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        double scale = 1;
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h")) {
                usage();
                System.exit(0);
            } else if (a.equals("--long")) {
                scale = 5;
            } else if (a.equals("--smoke")) {
                scale = -1;
            } else if (a.startsWith("--") && a.contains("=")) {
                String k = a.substring(2, a.indexOf('='));
                if (!DEFAULTS.containsKey(k)) throw new IllegalArgumentException("unknown flag --" + k + " (see --help)");
                v.put(k, a.substring(a.indexOf('=') + 1));
            } else {
                throw new IllegalArgumentException("unknown argument " + a + " (see --help)");
            }
        }
        Set<String> scaled = Set.of("w5-leases", "w5-hold-s", "warmup", "iterations", "redisson-iterations", "floor-iterations", "w2-seconds",
                "w3-iterations", "w3-redisson-iterations", "w4-iterations", "w4-redisson-iterations");
        for (String k : scaled) {
            if (!v.get(k).equals(DEFAULTS.get(k))) continue;        // explicit flags win
            long d = Long.parseLong(DEFAULTS.get(k));
            if (scale > 0) v.put(k, Long.toString((long) (d * scale)));
            else v.put(k, Long.toString(Math.max(k.startsWith("w3-redisson") ? 2 : 1, d / 100)));
        }
        if (scale > 0 && v.get("w5-leases").equals(Long.toString((long) (10000 * scale)))) v.put("w5-leases", "10000");
        return new Options(v);
    }

    static void usage() {
        System.out.println("java -jar redlock-bench/target/redlock-bench.jar [--long | --smoke] [--name=value ...]");
        DEFAULTS.forEach((k, d) -> System.out.println("  --" + k + "=" + d));
    }

    int integer(String k) {
        return Integer.parseInt(values.get(k));
    }

    String text(String k) {
        return values.get(k);
    }

    boolean flag(String k) {
        return Boolean.parseBoolean(values.get(k));
    }

    boolean runs(String workload) {
        return Set.of(values.get("only").split(",")).contains(workload);
    }

    boolean system(String name) {
        return Set.of(values.get("systems").split(",")).contains(name);
    }

    Path json() {
        return Path.of(values.get("json"));
    }

    Map<String, String> asMap() {
        return Map.copyOf(values);
    }
}
