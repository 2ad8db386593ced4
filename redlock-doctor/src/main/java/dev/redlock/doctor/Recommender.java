package dev.redlock.doctor;

import dev.redlock.RedlockConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules that turn measurements into settings (docs/tuning.md). A pure function of the node
 * reports and the user's longest TTL, so every rule is tested without a server.
 */
final class Recommender {
    /** The library's defaults, read from the library. */
    static final RedlockConfig DEFAULTS = RedlockConfig.builder().nodes("redis://127.0.0.1:6379").build();
    /** nodeTimeout = this many times the slowest node's p99.9 round trip. */
    static final int TAIL_FACTOR = 2;
    /** nodeTimeout is never below this: the client's own pauses (GC, scheduling) would time healthy votes out. */
    static final Duration NODE_TIMEOUT_FLOOR = Duration.ofMillis(10);
    /** driftFactor = this many times the fastest measured clock rate ... */
    static final int DRIFT_FACTOR_MULTIPLE = 2;
    /** ... plus this (ppm): the rate at which NTP (ntpd's kernel discipline) may slew a clock. */
    static final double NTP_SLEW_PPM = 500;
    /** A rate bound wider than this (ppm) is named in the reason: it says little. */
    static final double LOOSE_BOUND_PPM = 1000;
    /** The minimum TTL spends at most this many node timeouts on round trips. */
    static final int TTL_NODE_TIMEOUTS = 5;
    /** The quarantine's clock tolerance is at least this many times the largest measured clock offset. */
    static final int CLOCK_SAFETY = 2;
    private static final Duration MAX_QUARANTINE = Duration.ofHours(24);

    private Recommender() {}

    /**
     * Settings for the nodes examined; null when no node was reachable (nothing was measured).
     *
     * @param nodes  every node examined, reachable or not (N counts them all)
     * @param maxTtl the longest lease TTL the user needs
     */
    static Recommendation recommend(List<NodeReport> nodes, Duration maxTtl) {
        List<NodeReport> measured = nodes.stream()
                .filter(n -> n.reach() == NodeReport.Reach.REACHABLE && n.roundTrips() != null && n.roundTrips().probes() > 0)
                .toList();
        if (measured.isEmpty()) return null;
        Map<String, String> why = new LinkedHashMap<>();
        int n = nodes.size();

        int quorum = n / 2 + 1;
        long failing = nodes.stream().filter(NodeReport::fails).count();
        why.put("redlock.quorum", quorum + " of " + n + ": a majority, the smallest quorum that any two quorums "
                + "share a node of (no two holders); tolerates " + (n - quorum) + " node failure(s)"
                + (failing > 0 ? " (" + failing + " of these nodes fail a check now, leaving " + Math.max(0, n - quorum - failing)
                + " spare)" : "") + ". Each step higher tolerates one failure fewer and adds no safety"
                + (n % 2 == 0 ? "; with an even N, N - 1 = " + (n - 1) + " node(s) tolerate as many failures" : ""));

        NodeReport slowest = measured.get(0);
        for (NodeReport r : measured) if (r.roundTrips().p999().compareTo(slowest.roundTrips().p999()) > 0) slowest = r;
        Duration tail = slowest.roundTrips().p999();
        Duration nodeTimeout = roundUp(max(tail.multipliedBy(TAIL_FACTOR), NODE_TIMEOUT_FLOOR), Duration.ofMillis(5));
        StringBuilder nt = new StringBuilder(TAIL_FACTOR + " x the slowest node's p99.9 round trip (" + ms(tail) + " on "
                + slowest.node() + "), at least " + ms(NODE_TIMEOUT_FLOOR) + ", rounded up to 5 ms: a healthy node's "
                + "vote then times out less than once in a thousand even when its tail doubles (load, GC)");
        for (NodeReport r : measured) {
            if (r.roundTrips().timeouts() > 0) {
                nt.append("; ").append(r.node()).append(" left ").append(r.roundTrips().timeouts())
                        .append(" probe(s) unanswered for over a second: no nodeTimeout fixes that, it counts as a failed node");
            }
        }
        why.put("redlock.nodeTimeout", nt.toString());

        // the rate measured (the point estimate: a constant one-way delay cancels out of it); the bound is reported,
        // and named here when it is too loose to say much (slow round trips, a short window)
        double fastest = Double.NEGATIVE_INFINITY;
        NodeReport fastestNode = null;
        StringBuilder loose = new StringBuilder();
        for (NodeReport r : measured) {
            ClockMeasure c = r.clock();
            if (c == null || !c.driftKnown()) continue;
            if (c.driftPpm() > fastest) {
                fastest = c.driftPpm();
                fastestNode = r;
            }
            if (c.driftUncertaintyPpm() > LOOSE_BOUND_PPM) {
                loose.append(String.format(Locale.ROOT, "%s%s only to ± %.0f ppm (round trips of %s)",
                        loose.length() == 0 ? "" : ", ", r.node(), c.driftUncertaintyPpm(), ms(r.roundTrips().p50())));
            }
        }
        double defaultDrift = DEFAULTS.driftFactor();
        double driftFactor;
        if (fastestNode == null) {
            driftFactor = defaultDrift;
            why.put("redlock.driftFactor", "the default: no clock rate was measured (the window was too short)");
        } else {
            double needed = (DRIFT_FACTOR_MULTIPLE * Math.max(0, fastest) + NTP_SLEW_PPM) / 1e6;
            driftFactor = Math.max(defaultDrift, Math.ceil(needed * 1000 - 1e-9) / 1000);
            why.put("redlock.driftFactor", String.format(Locale.ROOT, "the fastest node clock ran %+.0f ppm ± %.0f ppm "
                    + "(%s) against this host's over %s; %d x that + %.0f ppm (NTP may slew a clock that fast) = %.5f; %s%s",
                    fastest, fastestNode.clock().driftUncertaintyPpm(), fastestNode.node(),
                    ms(fastestNode.clock().driftBase()), DRIFT_FACTOR_MULTIPLE, NTP_SLEW_PPM, needed,
                    needed <= defaultDrift ? "the default " + defaultDrift + " covers it (never below the default)"
                            : "above the default " + defaultDrift + ", rounded up to 0.001",
                    loose.length() == 0 ? "" : "; rates bounded loosely: " + loose + ": a longer --duration bounds them tighter"));
        }

        Duration fixedDrift = DEFAULTS.fixedDrift();
        why.put("redlock.fixedDrift", "the default (timer resolution and scheduling; not measured)");

        Duration minTtl = roundUp(Duration.ofNanos((long) Math.ceil(
                (nodeTimeout.multipliedBy(TTL_NODE_TIMEOUTS).plus(fixedDrift)).toNanos() / (1 - driftFactor))),
                Duration.ofMillis(10));
        why.put("minTtl", "(" + TTL_NODE_TIMEOUTS + " x nodeTimeout + fixedDrift) / (1 - driftFactor), rounded up to "
                + "10 ms: an acquire round and its fencing write take up to 2 node timeouts, and what is left must "
                + "leave room for a watchdog extension (every ttl/3) before the validity ends");

        Duration maxOffset = Duration.ZERO;
        String offsetAt = "none measured";
        for (NodeReport r : measured) {
            ClockMeasure c = r.clock();
            if (c == null) continue;
            Duration host = c.offsetFromHost().abs().plus(c.offsetUncertainty());
            Duration others = c.offsetFromNodes() == null ? Duration.ZERO : c.offsetFromNodes().abs().plus(c.offsetUncertainty());
            Duration worst = max(host, others);
            if (worst.compareTo(maxOffset) > 0) {
                maxOffset = worst;
                offsetAt = r.node() + (host.compareTo(others) >= 0 ? " from this host" : " from the nodes' median");
            }
        }
        // preflight tolerates (q - margin) / 2 with margin = min(100 ms, q / 4); want that >= CLOCK_SAFETY x offset
        Duration forClocks = maxOffset.multipliedBy(2L * CLOCK_SAFETY).plus(Duration.ofMillis(100));
        Duration q = max(max(maxTtl, minTtl), forClocks);
        q = q.compareTo(Duration.ofSeconds(1)) >= 0 ? roundUp(q, Duration.ofSeconds(1)) : roundUp(q, Duration.ofMillis(100));
        if (q.compareTo(MAX_QUARANTINE) > 0) q = MAX_QUARANTINE;
        long marginMs = Math.min(100, q.toMillis() / 4);
        why.put("redlock.restartQuarantine", "at least --max-ttl (" + ms(maxTtl) + ": lease TTLs may not exceed it) and "
                + "the minimum TTL; the largest clock offset measured is " + ms(maxOffset) + " (" + offsetAt + ", with its "
                + "bound); preflight tolerates (q - " + marginMs + " ms) / 2 = " + ms(Duration.ofMillis((q.toMillis()
                - marginMs) / 2)) + ", which must be at least " + CLOCK_SAFETY + " x the largest offset"
                + (q.equals(MAX_QUARANTINE) && forClocks.compareTo(MAX_QUARANTINE) > 0
                ? "; capped at 24 h, the largest allowed: synchronise the clocks (NTP)" : ""));

        return new Recommendation(n, quorum, driftFactor, fixedDrift, nodeTimeout, minTtl, q, why);
    }

    static Duration roundUp(Duration d, Duration step) {
        long s = step.toNanos();
        return Duration.ofNanos((d.toNanos() + s - 1) / s * s);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** "0.42 ms", "21 ms", "30 s". */
    static String ms(Duration d) {
        long nanos = d.toNanos();
        if (Math.abs(nanos) >= 10_000_000_000L) return String.format(Locale.ROOT, "%.0f s", nanos / 1e9);
        if (Math.abs(nanos) >= 10_000_000L) return String.format(Locale.ROOT, "%.0f ms", nanos / 1e6);
        if (Math.abs(nanos) >= 1_000_000L) return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }
}
