package dev.redlock.chaos.scenario;

import dev.redlock.RedlockConfig;
import dev.redlock.internal.Durations;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * A deployment's settings for a tuned run of the suite ({@code run --config redlock.properties}, or
 * {@code ChaosSuite.config}): N and quorum, drift, node timeout and restart quarantine from the file's
 * {@code redlock.*} keys (read and validated by {@code RedlockConfig}: the nodes are counted, never contacted), and
 * the lease TTL from {@code chaos.ttl} (a key {@code RedlockConfig} ignores; the doctor writes it). Every scenario
 * then runs with these values except the ones its claim depends on ({@link Needs#fixed()}): those keep the
 * scenario's own value, and {@link Tuned#kept()} says which and why. Retries, key prefix, fencing and preflight are
 * the harness's (its scripts decide when to retry; fencing is what the checkers compare against). Immutable.
 *
 * @param source            where the values came from (a file name), for messages
 * @param nodes             N ({@code redlock.nodes} counted)
 * @param quorum            {@code redlock.quorum}
 * @param driftFactor       {@code redlock.driftFactor}
 * @param fixedDrift        {@code redlock.fixedDrift}
 * @param nodeTimeout       {@code redlock.nodeTimeout}
 * @param restartQuarantine {@code redlock.restartQuarantine} (0: the amnesia guard off)
 * @param ttl               {@code chaos.ttl}; null when absent (each scenario keeps its own TTL)
 */
public record Tuning(String source, int nodes, int quorum, double driftFactor, Duration fixedDrift, Duration nodeTimeout,
                     Duration restartQuarantine, Duration ttl) {
    /** The key of the lease TTL. */
    public static final String TTL_KEY = "chaos.ttl";
    /** The scenarios wait a few TTLs at most 3-10 s at a time, and need at least 3 nodes to cut some. */
    static final Duration MAX_TTL = Duration.ofSeconds(2);
    static final int MIN_NODES = 3;

    /**
     * Reads a tuned properties file (the doctor's {@code --write}).
     *
     * @throws IllegalArgumentException naming the key, for a value {@code RedlockConfig} rejects, an unknown
     *                                  {@code chaos.*} key, or a TTL or node count the scenarios cannot run with
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static Tuning load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return fromProperties(p, file.toString());
    }

    /** As {@link #load}, from properties already read. */
    public static Tuning fromProperties(Properties p, String source) {
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("chaos.") && !key.equals(TTL_KEY)) {
                throw new IllegalArgumentException(source + ": unknown property " + key + "; known: " + TTL_KEY);
            }
        }
        RedlockConfig cfg;
        try {
            cfg = RedlockConfig.fromProperties(p);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        int n = cfg.nodes().size();
        if (n < MIN_NODES) {
            throw new IllegalArgumentException(source + ": the chaos scenarios need redlock.nodes to list at least "
                    + MIN_NODES + " nodes (they cut some and keep a quorum), got " + n);
        }
        Duration ttl = null;
        String raw = p.getProperty(TTL_KEY);
        if (raw != null) {
            ttl = parseDuration(source, raw.trim());
            Duration allowance = Duration.ofNanos((long) (ttl.toNanos() * cfg.driftFactor())).plus(cfg.fixedDrift());
            Duration min = max(Duration.ofMillis(100), cfg.nodeTimeout().multipliedBy(3).plus(allowance));
            if (ttl.compareTo(min) < 0 || ttl.compareTo(MAX_TTL) > 0) {
                throw new IllegalArgumentException(source + ": " + TTL_KEY + " must be in [" + ms(min) + ", " + ms(MAX_TTL)
                        + "] (at least 100 ms and 3 x nodeTimeout + the drift allowance; at most what the scenarios "
                        + "are written for), got " + ms(ttl));
            }
            if (!cfg.restartQuarantine().isZero() && ttl.compareTo(cfg.restartQuarantine()) > 0) {
                throw new IllegalArgumentException(source + ": " + TTL_KEY + " must not exceed redlock.restartQuarantine ("
                        + ms(cfg.restartQuarantine()) + "), got " + ms(ttl));
            }
        }
        return new Tuning(source, n, cfg.quorum(), cfg.driftFactor(), cfg.fixedDrift(), cfg.nodeTimeout(),
                cfg.restartQuarantine(), ttl);
    }

    /**
     * A scenario run with a tuned setting, and what it kept of its own.
     *
     * @param scenario the scenario with the tuned settings
     * @param kept     one line per setting it kept ("driftFactor=0.05 (yours 0.01): ..."), empty when none
     */
    public record Tuned(Scenario scenario, List<String> kept) {
        public Tuned {
            kept = List.copyOf(kept);
        }
    }

    /** {@code s} with these settings, except those its claim depends on. */
    public Tuned apply(Scenario s) {
        Settings own = s.settings();
        Set<Knob> fixed = s.needs().fixed();
        List<String> kept = new ArrayList<>();
        String why = s.needs().fixedWhy();
        boolean q = !fixed.contains(Knob.QUORUM);
        if (!q && (own.nodes() != nodes || own.quorum() != quorum)) {
            kept.add("N=" + own.nodes() + " quorum=" + own.quorum() + " (yours N=" + nodes + " quorum=" + quorum + ")");
        }
        double drift = pick(fixed, Knob.DRIFT_FACTOR, own.driftFactor(), driftFactor, kept, "driftFactor");
        Duration fixedDriftUsed = pick(fixed, Knob.FIXED_DRIFT, own.fixedDrift(), fixedDrift, kept, "fixedDrift");
        Duration timeout = pick(fixed, Knob.NODE_TIMEOUT, own.nodeTimeout(), nodeTimeout, kept, "nodeTimeout");
        Duration quarantine = pick(fixed, Knob.RESTART_QUARANTINE, own.restartQuarantine(), restartQuarantine, kept,
                "restartQuarantine");
        Duration lease = ttl == null ? own.ttl() : pick(fixed, Knob.TTL, own.ttl(), ttl, kept, "ttl");
        if (!kept.isEmpty()) kept.set(kept.size() - 1, kept.get(kept.size() - 1) + ": " + why);
        Settings.Builder tuned = own.toBuilder().driftFactor(drift).fixedDrift(fixedDriftUsed).ttl(lease)
                .nodeTimeout(timeout);
        if (q) tuned.nodes(nodes).quorum(quorum);
        if (!fixed.contains(Knob.RESTART_QUARANTINE)) {
            if (quarantine.isZero() || lease.compareTo(quarantine) <= 0) {
                tuned.restartQuarantine(quarantine);
            } else {   // a TTL it keeps is above the file's quarantine, which the clients would refuse
                kept.add("restartQuarantine=" + text(own.restartQuarantine()) + " (yours " + text(quarantine)
                        + "): its ttl " + text(lease) + " is above yours, and the clients refuse a ttl above the "
                        + "quarantine while the amnesia guard is on");
            }
        } else if (!lease.equals(own.ttl())) {
            tuned.restartQuarantine(own.restartQuarantine());   // its own value, not one derived from another TTL
        }   // else the scenario's own quarantine, derived from its TTL if it was
        return new Tuned(s.withSettings(tuned.build()), kept);
    }

    private static <T> T pick(Set<Knob> fixed, Knob k, T own, T tuned, List<String> kept, String name) {
        if (!fixed.contains(k)) return tuned;
        if (!own.equals(tuned)) kept.add(name + "=" + text(own) + " (yours " + text(tuned) + ")");
        return own;
    }

    private static String text(Object v) {
        return v instanceof Duration d ? ms(d) : String.valueOf(v);
    }

    private static Duration parseDuration(String source, String v) {
        return Durations.parse(source + ": " + TTL_KEY, v);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static String ms(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 && ms > 0 ? ms / 1000 + "s" : ms + "ms";
    }

    @Override
    public String toString() {
        return source + ": N=" + nodes + " quorum=" + quorum + " driftFactor=" + driftFactor + " fixedDrift="
                + ms(fixedDrift) + " nodeTimeout=" + ms(nodeTimeout) + " restartQuarantine=" + ms(restartQuarantine)
                + " ttl=" + (ttl == null ? "each scenario's own" : ms(ttl));
    }
}
