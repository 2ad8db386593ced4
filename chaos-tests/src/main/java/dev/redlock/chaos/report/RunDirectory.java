package dev.redlock.chaos.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.HistoryJson;
import dev.redlock.chaos.scenario.Check;
import dev.redlock.chaos.scenario.Expectation;
import dev.redlock.chaos.scenario.Outcome;
import dev.redlock.chaos.scenario.ScenarioResult;
import dev.redlock.chaos.scenario.ScenarioRunner;
import dev.redlock.chaos.scenario.Settings;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A chaos run on disk: {@code results.txt} and {@code report.html} for people, and beside them what a re-check
 * needs: {@code run.json} (each scenario's claim, settings, seed, scripted checks, harness error and verdicts) and
 * {@code histories/<n>-<id>.jsonl} (its full history, {@link HistoryJson}). {@link #read} loads a run and judges
 * every scenario again from its stored history with today's checkers ({@link ScenarioRunner#recheck}).
 * What a re-check cannot redo: the scripted checks and harness errors, which need the live cluster; they are taken
 * as recorded.
 */
public final class RunDirectory {
    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();
    private static final String TITLE = "redlock chaos report";

    private RunDirectory() {}

    /** One scenario of a stored run: what was recorded when it ran, and the result of judging it again. */
    public record Stored(String statusThen, String observedThen, String verdictThen, ScenarioResult now) {
        /** Whether the re-check reached another status, observation or verdict than the run did. */
        public boolean changed() {
            return !statusThen.equals(now.status()) || !observedThen.equals(String.valueOf(now.observed()))
                    || !verdictThen.equals(String.valueOf(now.verdict()));
        }
    }

    /**
     * Writes the report ({@code results.txt}: the table then {@code footer}; {@code report.html}), the run's manifest
     * and every history into {@code dir}; returns the HTML report's path.
     */
    public static Path write(Path dir, List<ScenarioResult> results, String footer) throws IOException {
        Path html = writeReport(dir, results, footer);
        Path histories = dir.resolve("histories");
        Files.createDirectories(histories);
        JsonArray scenarios = new JsonArray();
        for (int i = 0; i < results.size(); i++) {
            ScenarioResult r = results.get(i);
            String file = null;
            if (r.history() != null) {
                file = "histories/" + String.format(Locale.ROOT, "%02d-", i + 1) + r.id().replaceAll("[^A-Za-z0-9._-]", "_")
                        + ".jsonl";
                try (Writer w = Files.newBufferedWriter(dir.resolve(file), StandardCharsets.UTF_8)) {
                    HistoryJson.write(r.history(), w);
                }
            }
            scenarios.add(entry(r, file));
        }
        JsonObject run = new JsonObject();
        run.addProperty("footer", footer);
        run.add("scenarios", scenarios);
        Files.writeString(dir.resolve("run.json"), GSON.toJson(run), StandardCharsets.UTF_8);
        return html;
    }

    /** Writes {@code results.txt} and {@code report.html} only; returns the HTML report's path. */
    public static Path writeReport(Path dir, List<ScenarioResult> results, String footer) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.txt"), TextReport.table(results) + footer);
        return HtmlReport.write(dir.resolve("report.html"), results, TITLE);
    }

    /** The footer {@link #write} was given. */
    public static String footer(Path dir) throws IOException {
        return manifest(dir).get("footer").getAsString();
    }

    /**
     * Reads a run written by {@link #write} and judges each scenario again from its stored history.
     *
     * @throws IllegalArgumentException naming the file, when {@code dir} holds no stored run or a file is damaged
     */
    public static List<Stored> read(Path dir) throws IOException {
        List<Stored> out = new ArrayList<>();
        for (JsonElement el : manifest(dir).getAsJsonArray("scenarios")) {
            JsonObject e = el.getAsJsonObject();
            History history = null;
            if (e.has("history")) {
                Path file = dir.resolve(e.get("history").getAsString());
                try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    history = HistoryJson.read(r);
                } catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
                }
            }
            List<Check> checks = new ArrayList<>();
            for (JsonElement c : e.getAsJsonArray("checks")) checks.add(GSON.fromJson(c, Check.class));
            List<String> failures = new ArrayList<>();
            for (JsonElement f : e.getAsJsonArray("failures")) failures.add(f.getAsString());
            ScenarioResult asRun = new ScenarioResult(str(e, "id"), str(e, "name"), str(e, "fault"),
                    Expectation.valueOf(str(e, "expected")), Outcome.valueOf(str(e, "observed")),
                    e.get("status").getAsString().equals("PASS"), failures, null, checks, null, history,
                    history == null ? List.of() : history.faults(), str(e, "toxiproxyMode"), str(e, "clockMode"),
                    e.get("seed").getAsLong(), settings(e.getAsJsonObject("settings")), e.get("durationMs").getAsLong(),
                    str(e, "error"), str(e, "skipped"));
            out.add(new Stored(str(e, "status"), str(e, "observed"), str(e, "verdict"), ScenarioRunner.recheck(asRun)));
        }
        return out;
    }

    private static JsonObject manifest(Path dir) throws IOException {
        Path file = dir.resolve("run.json");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " holds no stored run (no run.json): only runs of this version "
                    + "store their histories");
        }
        try {
            return JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(file + " is not a stored run: " + e.getMessage(), e);
        }
    }

    private static JsonObject entry(ScenarioResult r, String historyFile) {
        JsonObject e = new JsonObject();
        e.addProperty("id", r.id());
        e.addProperty("name", r.name());
        e.addProperty("fault", r.fault());
        e.addProperty("expected", r.expected().name());
        e.addProperty("status", r.status());
        e.addProperty("observed", r.observed().name());
        e.addProperty("verdict", String.valueOf(r.verdict()));
        e.add("failures", GSON.toJsonTree(r.failures()));
        e.add("checks", GSON.toJsonTree(r.checks()));
        e.addProperty("seed", r.seed());
        e.add("settings", settings(r.settings()));
        e.addProperty("toxiproxyMode", r.toxiproxyMode());
        e.addProperty("clockMode", r.clockMode());
        e.addProperty("durationMs", r.durationMs());
        e.addProperty("error", r.error());
        e.addProperty("skipped", r.skipped());
        if (historyFile != null) e.addProperty("history", historyFile);
        return e;
    }

    private static JsonObject settings(Settings s) {
        JsonObject o = new JsonObject();
        o.addProperty("nodes", s.nodes());
        o.addProperty("quorum", s.quorum());
        o.addProperty("driftFactor", s.driftFactor());
        o.addProperty("fixedDriftNanos", s.fixedDrift().toNanos());
        o.addProperty("ttlNanos", s.ttl().toNanos());
        o.addProperty("nodeTimeoutNanos", s.nodeTimeout().toNanos());
        o.addProperty("clients", s.clients());
        o.addProperty("durationNanos", s.duration().toNanos());
        o.addProperty("rounds", s.rounds());
        o.addProperty("seed", s.seed());
        o.addProperty("aof", s.aof());
        o.addProperty("restartQuarantineNanos", s.restartQuarantine().toNanos());
        o.addProperty("clockNode", s.clockNode());
        o.add("ownProxies", GSON.toJsonTree(new TreeSet<>(s.ownProxies())));
        return o;
    }

    private static Settings settings(JsonObject o) {
        Set<Integer> own = new TreeSet<>();
        for (JsonElement c : o.getAsJsonArray("ownProxies")) own.add(c.getAsInt());
        return Settings.builder()
                .nodes(o.get("nodes").getAsInt())
                .quorum(o.get("quorum").getAsInt())
                .driftFactor(o.get("driftFactor").getAsDouble())
                .fixedDrift(nanos(o, "fixedDriftNanos"))
                .ttl(nanos(o, "ttlNanos"))
                .nodeTimeout(nanos(o, "nodeTimeoutNanos"))
                .clients(o.get("clients").getAsInt())
                .duration(nanos(o, "durationNanos"))
                .rounds(o.get("rounds").getAsInt())
                .seed(o.get("seed").getAsLong())
                .aof(o.get("aof").getAsBoolean())
                .restartQuarantine(nanos(o, "restartQuarantineNanos"))
                .clockNode(o.get("clockNode").getAsInt())
                .ownProxies(own)
                .build();
    }

    private static Duration nanos(JsonObject o, String field) {
        return Duration.ofNanos(o.get(field).getAsLong());
    }

    private static String str(JsonObject o, String field) {
        JsonElement e = o.get(field);
        return e == null || e.isJsonNull() ? null : e.getAsString();
    }
}
