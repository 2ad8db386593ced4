package dev.redlock.doctor;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@link DoctorReport#toText()}: a table per node, then the recommendation with its reasons, then the verdict. */
final class ReportText {
    private static final String INDENT = "                  ";

    private ReportText() {}

    static String render(DoctorReport r) {
        StringBuilder b = new StringBuilder();
        b.append("redlock doctor: ").append(r.nodes().size()).append(" node(s), ").append(Recommender.ms(r.duration()))
                .append(" of TIME probes every ").append(Recommender.ms(r.interval())).append(", longest TTL ")
                .append(Recommender.ms(r.maxTtl())).append(", key prefix ").append(r.keyPrefix()).append('\n');
        for (NodeReport n : r.nodes()) node(b, n);
        b.append('\n');
        r.recommendation().ifPresentOrElse(rec -> recommendation(b, rec),
                () -> b.append("no recommendation: no node could be measured\n"));
        b.append('\n');
        List<String> failures = r.failures();
        if (failures.isEmpty()) {
            b.append("verdict: every node passes (exit 0)\n");
        } else {
            b.append("verdict: ").append(failures.size()).append(" problem(s) (exit ").append(r.exitCode()).append(")\n");
            for (String f : failures) b.append("  ").append(f).append('\n');
        }
        return b.toString();
    }

    private static void node(StringBuilder b, NodeReport n) {
        b.append('\n').append(n.node()).append("  ").append(n.reach() != NodeReport.Reach.REACHABLE ? n.reach()
                : n.fails() ? "FAIL" : n.findings().isEmpty() ? "ok" : "WARN").append('\n');
        if (n.reach() != NodeReport.Reach.REACHABLE) {
            row(b, "error", n.error());
            return;
        }
        row(b, "server", (n.server() != null ? n.server().toString() : "redis_version " + n.version()) + ", run_id "
                + abbreviate(n.runId()) + ", user " + n.user());
        row(b, "role", n.role());
        row(b, "persistence", n.persistence());
        row(b, "memory", n.memory());
        long permitted = n.commands().stream().filter(c -> c.status() == CommandCheck.Status.PERMITTED).count();
        StringBuilder acl = new StringBuilder(permitted + " of " + n.commands().size() + " commands the library sends are permitted");
        for (CommandCheck c : n.commands()) {
            if (c.status() != CommandCheck.Status.PERMITTED) {
                acl.append("; ").append(c.status()).append(' ').append(c.command()).append(c.required() ? " (required)" : " (optional)");
            }
        }
        row(b, "permissions", acl.toString());
        row(b, "marker", n.marker() == null ? "not read" : n.marker().state() + ": " + n.marker().detail());
        if (n.marker() != null) {
            for (MembershipRecord r : n.marker().standingRecords()) {
                row(b, "", "membership record: " + r.describe() + " (stands " + r.standsMs() + " ms more)");
            }
        }
        RoundTrips rt = n.roundTrips();
        row(b, "round trips", rt.probes() == 0 ? "no probe answered (" + rt.timeouts() + " timeouts, " + rt.errors() + " errors)"
                : "p50 " + Recommender.ms(rt.p50()) + "  p99 " + Recommender.ms(rt.p99()) + "  p99.9 " + Recommender.ms(rt.p999())
                + "  max " + Recommender.ms(rt.max()) + "  (" + rt.probes() + " probes, " + rt.timeouts() + " timeouts, "
                + rt.errors() + " errors)");
        ClockMeasure c = n.clock();
        if (c != null) {
            row(b, "clock offset", signed(c.offsetFromHost()) + " ± " + Recommender.ms(c.offsetUncertainty())
                    + " from this host" + (c.offsetFromNodes() == null ? "" : ", " + signed(c.offsetFromNodes())
                    + " from the nodes' median"));
            row(b, "clock rate", c.driftKnown() ? String.format(Locale.ROOT, "%+.0f ppm ± %.0f ppm against this host's "
                    + "monotonic clock over %s (%s)", c.driftPpm(), c.driftUncertaintyPpm(), Recommender.ms(c.driftBase()),
                    Math.abs(c.driftPpm()) <= c.driftUncertaintyPpm() ? "no difference within the bound"
                    : c.driftPpm() > 0 ? "runs fast" : "runs slow") : "not measured (window too short)");
        }
        if (n.findings().isEmpty()) {
            row(b, "findings", "none");
        } else {
            boolean first = true;
            for (Finding f : n.findings()) {
                row(b, first ? "findings" : "", f.severity() + " " + f.check() + ": " + f.message());
                first = false;
            }
        }
    }

    private static void recommendation(StringBuilder b, Recommendation rec) {
        b.append("recommended settings (--write FILE writes them)\n");
        Map<String, String> why = rec.reasons();
        setting(b, "redlock.quorum=" + rec.quorum(), why.get("redlock.quorum"));
        setting(b, "redlock.nodeTimeout=" + ReportProperties.duration(rec.nodeTimeout()), why.get("redlock.nodeTimeout"));
        setting(b, "redlock.driftFactor=" + ReportProperties.number(rec.driftFactor()), why.get("redlock.driftFactor"));
        setting(b, "redlock.fixedDrift=" + ReportProperties.duration(rec.fixedDrift()), why.get("redlock.fixedDrift"));
        setting(b, "redlock.restartQuarantine=" + ReportProperties.duration(rec.restartQuarantine()),
                why.get("redlock.restartQuarantine"));
        setting(b, "minimum TTL " + ReportProperties.duration(rec.minTtl()), why.get("minTtl"));
    }

    private static void setting(StringBuilder b, String value, String reason) {
        b.append("  ").append(value).append('\n').append("      ").append(reason).append('\n');
    }

    private static void row(StringBuilder b, String label, String value) {
        b.append("  ").append(label).append(INDENT, 0, Math.max(1, 16 - label.length())).append(value).append('\n');
    }

    private static String signed(Duration d) {
        return (d.isNegative() ? "-" : "+") + Recommender.ms(d.abs());
    }

    private static String abbreviate(String runId) {
        return runId == null ? "unknown" : runId.length() > 12 ? runId.substring(0, 12) + "..." : runId;
    }
}
