package dev.redlock.doctor;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/** {@link DoctorReport#toProperties()}: the recommended settings as a {@code .properties} file, reasons as comments. */
final class ReportProperties {
    /** The key the chaos suite's {@code run --config} reads the lease TTL from (not a {@code redlock.*} key). */
    static final String CHAOS_TTL = "chaos.ttl";

    private ReportProperties() {}

    static String render(DoctorReport r, List<String> rawNodes) {
        Recommendation rec = r.recommendation().orElseThrow();
        Map<String, String> why = rec.reasons();
        StringBuilder b = new StringBuilder();
        b.append("# redlock settings recommended by the doctor on ").append(r.startedAt().truncatedTo(ChronoUnit.SECONDS))
                .append(", from ").append(Recommender.ms(r.duration())).append(" of probes to ").append(rawNodes.size())
                .append(" node(s) from one host.\n")
                .append("# Load with RedlockConfig.load(path); verify under faults: java -jar redlock-chaos.jar run --config <this file>\n");
        List<String> failures = r.failures();
        if (!failures.isEmpty()) {
            b.append("# WARNING: ").append(failures.size()).append(" problem(s) found; fix them before relying on these settings:\n");
            for (String f : failures) comment(b, f);
        }
        b.append("# This file lists the nodes as given, credentials included: keep it private.\n");
        b.append("redlock.nodes=").append(String.join(",", rawNodes)).append('\n');
        if (!r.keyPrefix().equals(Recommender.DEFAULTS.keyPrefix())) b.append("redlock.keyPrefix=").append(r.keyPrefix()).append('\n');
        entry(b, "redlock.quorum", Integer.toString(rec.quorum()), why.get("redlock.quorum"));
        entry(b, "redlock.nodeTimeout", duration(rec.nodeTimeout()), why.get("redlock.nodeTimeout"));
        entry(b, "redlock.driftFactor", number(rec.driftFactor()), why.get("redlock.driftFactor"));
        entry(b, "redlock.fixedDrift", duration(rec.fixedDrift()), why.get("redlock.fixedDrift"));
        entry(b, "redlock.restartQuarantine", duration(rec.restartQuarantine()), why.get("redlock.restartQuarantine"));
        entry(b, "redlock.preflight", "STRICT", "refuse nodes whose settings break the guarantees (the doctor's FAIL findings)");
        entry(b, CHAOS_TTL, duration(rec.minTtl()), "not read by RedlockConfig: the lease TTL the chaos suite's run "
                + "--config uses, here the minimum sensible TTL (the hardest case); set it to your leases' TTL. "
                + why.get("minTtl"));
        return b.toString();
    }

    private static void entry(StringBuilder b, String key, String value, String reason) {
        b.append('\n');
        comment(b, reason);
        b.append(key).append('=').append(value).append('\n');
    }

    /** Wrapped at about 110 characters. */
    private static void comment(StringBuilder b, String text) {
        StringBuilder line = new StringBuilder("#");
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > 112 && line.length() > 1) {
                b.append(line).append('\n');
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        b.append(line).append('\n');
    }

    /** As the library's properties read durations: {@code 50ms}, {@code 30s}. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 && ms > 0 ? ms / 1000 + "s" : ms + "ms";
    }

    static String number(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
