package dev.redlock;

import dev.redlock.internal.Failures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Reads one node's {@link NodeFacts} through {@link NodeClient#command} ({@code INFO}; {@code CONFIG GET} only for
 * what {@code INFO} does not say; three {@code TIME} samples) and applies {@link PreflightRules}. One call per
 * node: {@link #check}. Never blocks; a node that does not answer fails the future.
 */
final class PreflightCheck {
    private static final int CLOCK_SAMPLES = 3;

    private PreflightCheck() {}

    /** The findings for one node (its clock against this client's; the cross-node comparison needs every node). */
    static CompletableFuture<List<PreflightFinding>> check(NodeClient n, String node, RedlockConfig cfg,
                                                           LongSupplier wallMicros) {
        long tolerance = PreflightRules.clockToleranceUs(cfg);
        return facts(n, node, wallMicros).thenApply(f -> PreflightRules.check(f, tolerance));
    }

    /** Reads the facts the rules need. */
    static CompletableFuture<NodeFacts> facts(NodeClient n, String node, LongSupplier wallMicros) {
        return n.command("INFO").thenCompose(raw -> {
            Map<String, String> info = parseInfo(String.valueOf(raw));
            List<String> wanted = new ArrayList<>();
            if (!"master".equals(info.get("role"))) wanted.add("replica-read-only");
            if (!info.containsKey("maxmemory_policy")) {
                wanted.add("maxmemory-policy");
                wanted.add("maxmemory");
            }
            Map<String, String> config = new HashMap<>();
            String[] configError = {null};
            CompletableFuture<Void> cfg = CompletableFuture.completedFuture(null);
            for (String name : wanted) {
                cfg = cfg.thenCompose(x -> configError[0] != null ? CompletableFuture.completedFuture(null)
                        : n.command("CONFIG", "GET", name).handle((r, e) -> {
                            if (e != null) configError[0] = Failures.describe(e);
                            else if (r instanceof List<?> l && l.size() >= 2) config.put(name, String.valueOf(l.get(1)));
                            return null;
                        }));
            }
            List<NodeFacts.ClockSample> samples = new ArrayList<>();
            CompletableFuture<Void> clock = cfg;
            for (int i = 0; i < CLOCK_SAMPLES; i++) clock = clock.thenCompose(x -> sample(n, wallMicros, samples));
            return clock.thenApply(x -> new NodeFacts(node, info, config, configError[0], samples));
        });
    }

    private static CompletableFuture<Void> sample(NodeClient n, LongSupplier wallMicros, List<NodeFacts.ClockSample> out) {
        long before = wallMicros.getAsLong();
        return n.command("TIME").thenAccept(r -> {
            long after = wallMicros.getAsLong();
            List<?> t = (List<?>) r;
            long nodeUs = Long.parseLong(String.valueOf(t.get(0))) * 1_000_000L + Long.parseLong(String.valueOf(t.get(1)));
            synchronized (out) {
                out.add(new NodeFacts.ClockSample(before, nodeUs, after));
            }
        });
    }

    /** {@code INFO} text to a field map ({@code name:value} lines; sections and comments skipped). */
    static Map<String, String> parseInfo(String text) {
        Map<String, String> out = new HashMap<>();
        for (String line : text.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (line.isEmpty() || line.startsWith("#") || colon <= 0) continue;
            out.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
        }
        return out;
    }
}
