package dev.redlock.chaos.report;

import dev.redlock.chaos.checker.Anomaly;
import dev.redlock.chaos.history.Write;
import dev.redlock.chaos.scenario.ScenarioResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes one self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched from the network) with the
 * results table and, per scenario, a timeline: one lane per client, leases as bars, writes as ticks (fenced store
 * above the bar, unfenced below; red = a stale write accepted, grey cross = refused by the fence), fault windows
 * shaded, violations marked; below the clients, one lane per node with the ground truth (whose value the node held
 * when, as sampled straight from it).
 */
public final class HtmlReport {
    private static final int LANE = 46;
    private static final int NODE_LANE = 16;
    private static final int WIDTH = 1100;
    private static final int LEFT = 70;

    private HtmlReport() {}

    public static Path write(Path file, List<ScenarioResult> results, String title) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, render(results, title), StandardCharsets.UTF_8);
        return file;
    }

    static String render(List<ScenarioResult> results, String title) {
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title))
          .append("</title>\n<style>\n")
          .append("body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}")
          .append("td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}")
          .append("td.l{text-align:left}.pass{color:#176f2c;font-weight:600}.fail{color:#b00020;font-weight:600}")
          .append(".skip{color:#777;font-weight:600}")
          .append("section{margin-top:28px}svg{border:1px solid #ddd;background:#fff}")
          .append(".legend span{display:inline-block;margin-right:14px}.sw{display:inline-block;width:14px;height:10px;")
          .append("margin-right:4px;vertical-align:middle}pre{background:#f7f7f7;padding:8px;overflow:auto;max-height:240px}")
          .append("\n</style></head><body>\n");
        sb.append("<h1>").append(esc(title)).append("</h1>\n<p>Generated ").append(Instant.now())
          .append(". Every scenario states what it expects; a run that contradicts it fails. A SKIPPED scenario was not")
          .append(" run (the cluster cannot do what it needs) and counts neither way.</p>\n");
        sb.append(TextReport.htmlTable(results));
        sb.append("<p class=\"legend\"><span><i class=\"sw\" style=\"background:#4a78c2\"></i>lease (believed held)</span>")
          .append("<span><i class=\"sw\" style=\"background:#f5d28a\"></i>fault window</span>")
          .append("<span><i class=\"sw\" style=\"background:#e53935;opacity:.35\"></i>violation (overlap / stale write / lost "
                  + "update / believed without a majority / leaked key)</span>")
          .append("<span><i class=\"sw\" style=\"background:#7e9fd6\"></i>node holds a lease's value</span>")
          .append("<span><i class=\"sw\" style=\"background:#8d6e63\"></i>node holds a round's value that became no lease</span>")
          .append("<span><i class=\"sw\" style=\"background:#bbb\"></i>node unreadable</span>")
          .append("<span>&#9650; fenced write accepted &nbsp; &#10005; refused by the fence &nbsp; &#9660; unfenced write (red: stale)</span></p>\n");
        for (ScenarioResult r : results) section(sb, r);
        sb.append("</body></html>\n");
        return sb.toString();
    }

    private static void section(StringBuilder sb, ScenarioResult r) {
        if (r.isSkipped()) {
            sb.append("<section id=\"s").append(esc(r.id())).append("\"><h2>Scenario ").append(esc(r.id())).append(": ")
              .append(esc(r.name())).append(" <span class=\"skip\">SKIPPED</span></h2>\n<p>").append(esc(r.fault()))
              .append("<br>expected <b>").append(r.expected()).append("</b>; not run: ").append(esc(r.skipped()))
              .append("<br>settings ").append(esc(String.valueOf(r.settings()))).append("; toxiproxy ")
              .append(esc(r.toxiproxyMode())).append("</p>\n</section>\n");
            return;
        }
        sb.append("<section id=\"s").append(esc(r.id())).append("\"><h2>Scenario ").append(esc(r.id())).append(": ")
          .append(esc(r.name())).append(" <span class=\"").append(TextReport.statusClass(r)).append("\">")
          .append(r.status()).append("</span></h2>\n<p>").append(esc(r.fault())).append("<br>expected <b>").append(r.expected())
          .append("</b>, observed <b>").append(r.observed()).append("</b>; settings ").append(esc(String.valueOf(r.settings())))
          .append("; toxiproxy ").append(esc(r.toxiproxyMode())).append("; clock ").append(esc(r.clockMode()))
          .append("; seed ").append(r.seed()).append("</p>\n");
        if (!r.failures().isEmpty() || r.error() != null) {
            sb.append("<pre>");
            r.failures().forEach(f -> sb.append(esc(f)).append('\n'));
            if (r.error() != null) sb.append("error: ").append(esc(r.error())).append('\n');
            sb.append("</pre>\n");
        }
        if (r.history() != null) {
            List<Anomaly> anomalies = new ArrayList<>();
            if (r.verdict() != null) {
                r.verdict().parts().forEach(p -> anomalies.addAll(p.anomalies()));
                anomalies.addAll(r.verdict().anomalies());
            }
            sb.append(svg(Timeline.of(r.history(), r.faults(), anomalies, r.settings().clients())));
            if (!anomalies.isEmpty()) {
                sb.append("<details><summary>").append(anomalies.size()).append(" findings</summary><pre>");
                anomalies.stream().limit(200).forEach(a -> sb.append(esc(a.toString())).append('\n'));
                sb.append("</pre></details>\n");
            }
        }
        sb.append("</section>\n");
    }

    static String svg(Timeline t) {
        int clientLanes = Math.max(1, t.lanes().size());
        int lanes = clientLanes;
        int height = 30 + clientLanes * LANE + t.nodes() * NODE_LANE + 20;
        double scale = (WIDTH - LEFT - 10) / Math.max(1.0, t.spanMs());
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
         .append("\" font-size=\"11\">\n");
        for (Timeline.Span f : t.faults()) {
            s.append(rect(LEFT + f.fromMs() * scale, 20, Math.max(2, (f.toMs() - f.fromMs()) * scale), lanes * LANE,
                    "#f5d28a", 0.55, f.label()));
            s.append("<text x=\"").append(fmt(LEFT + f.fromMs() * scale + 2)).append("\" y=\"14\" fill=\"#8a6100\">")
             .append(esc(f.kind())).append("</text>\n");
        }
        for (int i = 0; i < lanes; i++) {
            int y = 20 + i * LANE;
            s.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(y + LANE).append("\" x2=\"").append(WIDTH)
             .append("\" y2=\"").append(y + LANE).append("\" stroke=\"#eee\"/>\n");
            s.append("<text x=\"4\" y=\"").append(y + LANE / 2 + 4).append("\">client ").append(t.lanes().get(i)).append("</text>\n");
        }
        for (int n = 0; n < t.nodes(); n++) {
            int y = 20 + clientLanes * LANE + n * NODE_LANE;
            s.append("<text x=\"4\" y=\"").append(y + NODE_LANE / 2 + 4).append("\" fill=\"#555\">node ").append(n)
             .append("</text>\n");
        }
        for (Timeline.NodeRun r : t.nodeRuns()) {
            int y = 20 + clientLanes * LANE + r.node() * NODE_LANE + 3;
            String fill = !r.answered() ? "#bbb" : r.owner().equals("no lease") ? "#8d6e63" : "#7e9fd6";
            String title = !r.answered() ? "node " + r.node() + " could not be read"
                    : "node " + r.node() + " held " + (r.owner().equals("no lease") ? "the value of a round that returned no lease"
                    : r.owner() + "'s value") + " (PTTL " + r.pttlMs() + " ms at first reading)";
            s.append(rect(LEFT + r.fromMs() * scale, y, Math.max(1, (r.toMs() - r.fromMs()) * scale), NODE_LANE - 6, fill,
                    r.answered() ? 0.9 : 0.5, title + ", " + fmt(r.fromMs()) + "-" + fmt(r.toMs()) + " ms"));
        }
        for (Timeline.Bar b : t.bars()) {
            int y = laneY(t, b.client()) + 14;
            s.append(rect(LEFT + b.fromMs() * scale, y, Math.max(1.5, (b.toMs() - b.fromMs()) * scale), 16, "#4a78c2", 0.85,
                    b.owner() + " token " + b.token() + " held " + fmt(b.fromMs()) + "-" + fmt(b.toMs()) + " ms"
                            + (b.endedByRelease() ? "" : " (not released: validity ran out)")));
        }
        for (Timeline.Tick k : t.ticks()) {
            double x = LEFT + k.atMs() * scale;
            int y = laneY(t, k.client());
            boolean fenced = k.store() == Write.Store.FENCED;
            String color = k.accepted() ? (k.stale() ? "#e53935" : (fenced ? "#2e7d32" : "#666")) : "#999";
            String glyph = fenced ? (k.accepted() ? "&#9650;" : "&#10005;") : "&#9660;";
            s.append("<text x=\"").append(fmt(x - 4)).append("\" y=\"").append(fenced ? y + 12 : y + 42)
             .append("\" fill=\"").append(color).append("\"><title>").append(k.store()).append(" write token ")
             .append(k.token()).append(k.accepted() ? " accepted" : " refused").append(k.stale() ? " (stale)" : "")
             .append(" at ").append(fmt(k.atMs())).append(" ms</title>").append(glyph).append("</text>\n");
        }
        for (Timeline.Span a : t.anomalies()) {
            double x = LEFT + a.fromMs() * scale;
            double w = Math.max(3, (a.toMs() - a.fromMs()) * scale);
            if (a.clients().isEmpty()) {
                s.append(rect(x, 20, w, lanes * LANE, "#e53935", 0.3, a.kind() + ": " + a.label()));
            } else {
                for (int c : a.clients()) s.append(rect(x, laneY(t, c) + 8, w, 28, "#e53935", 0.35, a.kind() + ": " + a.label()));
            }
        }
        s.append("<text x=\"").append(LEFT).append("\" y=\"").append(height - 4).append("\">0 ms</text>")
         .append("<text x=\"").append(WIDTH - 70).append("\" y=\"").append(height - 4).append("\">")
         .append(fmt(t.spanMs())).append(" ms</text>\n</svg>\n");
        return s.toString();
    }

    private static int laneY(Timeline t, int client) {
        int i = t.lanes().indexOf(client);
        return 20 + Math.max(0, i) * LANE;
    }

    private static String rect(double x, double y, double w, double h, String fill, double opacity, String title) {
        return "<rect x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" width=\"" + fmt(w) + "\" height=\"" + fmt(h)
                + "\" fill=\"" + fill + "\" fill-opacity=\"" + opacity + "\"><title>" + esc(title) + "</title></rect>\n";
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    static String esc(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
