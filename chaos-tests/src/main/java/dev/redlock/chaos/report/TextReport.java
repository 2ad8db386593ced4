package dev.redlock.chaos.report;

import dev.redlock.chaos.scenario.Counts;
import dev.redlock.chaos.scenario.ScenarioResult;
import java.util.List;
import java.util.Locale;

/** The results table, as plain text for the terminal and as an HTML table for the report. */
public final class TextReport {
    private static final String[] HEADER = {"scenario", "expected", "observed", "result", "ops", "violations",
            "stale acc (unfenced)", "stale rej (fenced)", "stale acc (fenced)", "lost updates", "unheld (truth)",
            "key leaks (truth)", "token inv", "availability", "seed"};

    private TextReport() {}

    public static String table(List<ScenarioResult> results) {
        StringBuilder sb = new StringBuilder();
        String fmt = "%-34s %-9s %-9s %-7s %6s %10s %20s %18s %18s %12s %14s %17s %9s %12s %s%n";
        sb.append(String.format(Locale.ROOT, fmt, (Object[]) HEADER));
        for (ScenarioResult r : results) {
            Object[] row = row(r);
            sb.append(String.format(Locale.ROOT, fmt, row));
        }
        long skipped = results.stream().filter(ScenarioResult::isSkipped).count();
        long failed = results.stream().filter(r -> !r.isSkipped() && !r.passed()).count();
        sb.append(results.size() - failed - skipped).append(" passed, ").append(failed).append(" failed, ")
          .append(skipped).append(" skipped (not run: the cluster cannot do what they need; not failures)\n");
        for (ScenarioResult r : results) {
            if (r.isSkipped()) sb.append("  skipped ").append(r.id()).append(' ').append(r.name()).append(": ")
                    .append(r.skipped()).append('\n');
        }
        for (ScenarioResult r : results) {
            if (!r.isSkipped() && !r.clockMode().equals("none")) {
                sb.append("  clock ").append(r.id()).append(' ').append(r.name()).append(": ").append(r.clockMode())
                        .append('\n');
            }
        }
        return sb.toString();
    }

    static String htmlTable(List<ScenarioResult> results) {
        StringBuilder sb = new StringBuilder("<table><tr>");
        for (String h : HEADER) sb.append("<th>").append(HtmlReport.esc(h)).append("</th>");
        sb.append("</tr>\n");
        for (ScenarioResult r : results) {
            Object[] row = row(r);
            sb.append("<tr>");
            for (int i = 0; i < row.length; i++) {
                String cell = HtmlReport.esc(String.valueOf(row[i]));
                if (i == 0) cell = "<a href=\"#s" + HtmlReport.esc(r.id()) + "\">" + cell + "</a>";
                String cls = i == 0 ? " class=\"l\"" : i == 3 ? " class=\"" + statusClass(r) + "\"" : "";
                if (i == 3 && r.isSkipped()) cell = "<span title=\"" + HtmlReport.esc(r.skipped()) + "\">" + cell + "</span>";
                sb.append("<td").append(cls).append('>').append(cell).append("</td>");
            }
            sb.append("</tr>\n");
        }
        return sb.append("</table>\n").toString();
    }

    /** CSS class of a result: pass, fail or skip. */
    static String statusClass(ScenarioResult r) {
        return r.isSkipped() ? "skip" : r.passed() ? "pass" : "fail";
    }

    private static Object[] row(ScenarioResult r) {
        Counts c = r.counts();
        String name = r.id() + " " + r.name();
        if (name.length() > 34) name = name.substring(0, 33) + "…";
        return new Object[] {name, r.expected(), r.isSkipped() ? "-" : r.observed(), r.status(),
                c == null ? "-" : c.operations(), c == null ? "-" : c.violations(),
                c == null ? "-" : c.staleAcceptedUnfenced(), c == null ? "-" : c.staleRejectedFenced(),
                c == null ? "-" : c.staleAcceptedFenced(), c == null ? "-" : c.lostUpdates(),
                c == null ? "-" : c.unheld(), c == null ? "-" : c.keyLeaks(), c == null ? "-" : c.tokenInversions(),
                c == null ? "-" : String.format(Locale.ROOT, "%.2f", c.availability()), r.seed()};
    }
}
