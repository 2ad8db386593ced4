package dev.redlock.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Flags of the side-by-side bench, {@code --name=value}. Defaults keep a run near 2-3 minutes on 2 cores;
 * {@code --long} multiplies iteration counts and durations by 5, {@code --smoke} shrinks them to seconds.
 */
final class Options {
    private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("warmup", "10000");         // JIT warm-up: acquire+release per system, once per process, before anything is measured
        DEFAULTS.put("client-warmup", "1000");   // then per client before it is measured (connections, caches)
        DEFAULTS.put("iterations", "5000");      // W1 measured acquire+release, redlock and node-redlock
        DEFAULTS.put("redisson-iterations", "1500"); // W1 measured, RedissonRedLock (it is ~5x slower)
        DEFAULTS.put("floor-iterations", "20000");   // single-node SET NX PX round trips (every floor)
        DEFAULTS.put("w2-ms", "10000");          // W2 measured time per system, in w2-batches interleaved batches
        DEFAULTS.put("w2-batches", "2");
        DEFAULTS.put("w2-clients", "8");
        DEFAULTS.put("w3-iterations", "2000");   // W3 redlock and node-redlock, healthy then with 2 of 5 SIGSTOPped
        DEFAULTS.put("w3-redisson-iterations", "15");
        DEFAULTS.put("w4-iterations", "2000");   // W4 redlock and node-redlock per N
        DEFAULTS.put("w4-redisson-iterations", "400");
        DEFAULTS.put("w6-callers", "1,8,64,256"); // W6 concurrent callers of one instance, distinct resources
        DEFAULTS.put("w6-ms", "4000");           // W6 measured time per system and caller count, in w6-batches batches
        DEFAULTS.put("w6-batches", "2");
        DEFAULTS.put("batch-warmup-ms", "1000"); // W2/W6: unmeasured run of each system before its batches
        DEFAULTS.put("node-timeout-ms", "100");  // every system: per-node command timeout
        DEFAULTS.put("ttl-ms", "10000");
        DEFAULTS.put("runs", "1");               // repeat everything; the table shows the median of each figure
        DEFAULTS.put("only", "W1,W2,W3,W4,W6");
        DEFAULTS.put("systems", "redlock,redlock-nofence,redlock-async,node-redlock,redisson"); // redlock-async: W1 and W6
        DEFAULTS.put("json", "redlock-bench/target/bench.json");
        DEFAULTS.put("node-dir", "redlock-bench/target/node-redlock"); // where npm installs node-redlock
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
        Set<String> scaled = Set.of("w5-leases", "w5-hold-s", "warmup", "client-warmup", "iterations",
                "redisson-iterations", "floor-iterations", "w2-ms", "w3-iterations", "w3-redisson-iterations",
                "w4-iterations", "w4-redisson-iterations", "w6-ms", "batch-warmup-ms");
        for (String k : scaled) {
            if (!v.get(k).equals(DEFAULTS.get(k))) continue;        // explicit flags win
            long d = Long.parseLong(DEFAULTS.get(k));
            if (scale > 0) v.put(k, Long.toString((long) (d * scale)));
            else v.put(k, Long.toString(Math.max(k.startsWith("w3-redisson") ? 2 : 1, d / 100)));
        }
        validate(v);
        if (scale > 0 && v.get("w5-leases").equals(Long.toString((long) (10000 * scale)))) v.put("w5-leases", "10000");
        return new Options(v);
    }

    private static final Set<String> TEXT = Set.of("only", "systems", "json", "node-dir", "w6-callers");
    private static final Set<String> WORKLOADS = Set.of("W1", "W2", "W3", "W4", "W5", "W6");
    private static final Set<String> SYSTEMS = Set.of("redlock", "redlock-nofence", "redlock-async", "node-redlock", "redisson");

    /** Every value must parse: numbers non-negative (runs and batches positive), names known; the message names the flag. */
    private static void validate(Map<String, String> v) {
        v.forEach((k, val) -> {
            if (TEXT.contains(k)) return;
            long n;
            try {
                n = Long.parseLong(val);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + k + " must be an integer, got '" + val + "'");
            }
            long min = k.equals("runs") || k.endsWith("-batches") ? 1 : 0;
            if (n < min || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("--" + k + " must be in [" + min + ", " + Integer.MAX_VALUE + "], got " + val);
            }
        });
        for (String c : v.get("w6-callers").split(",")) {
            int n;
            try {
                n = Integer.parseInt(c.trim());
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1) throw new IllegalArgumentException("--w6-callers must be a comma-separated list of positive integers, got '" + v.get("w6-callers") + "'");
        }
        checkNames("only", v.get("only"), WORKLOADS);
        checkNames("systems", v.get("systems"), SYSTEMS);
    }

    private static void checkNames(String flag, String value, Set<String> known) {
        for (String name : value.split(",")) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("--" + flag + " has unknown '" + name + "', allowed: " + new TreeSet<>(known));
            }
        }
    }

    static void usage() {
        System.out.println("java -jar redlock-bench/target/redlock-bench.jar [--long | --smoke] [--name=value ...]");
        DEFAULTS.forEach((k, d) -> System.out.println("  --" + k + "=" + d));
    }

    int integer(String k) {
        return Integer.parseInt(values.get(k));
    }

    /** A comma-separated list of integers, e.g. {@code w6-callers}. */
    int[] integers(String k) {
        return Arrays.stream(values.get(k).split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
    }

    Path path(String k) {
        return Path.of(values.get(k));
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
