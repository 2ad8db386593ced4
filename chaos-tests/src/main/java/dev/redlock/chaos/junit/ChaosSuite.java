package dev.redlock.chaos.junit;

import dev.redlock.chaos.cluster.ExternalServer;
import dev.redlock.chaos.cluster.Toxiproxy;
import dev.redlock.chaos.report.RunDirectory;
import dev.redlock.chaos.scenario.Scenario;
import dev.redlock.chaos.scenario.ScenarioResult;
import dev.redlock.chaos.scenario.ScenarioRunner;
import dev.redlock.chaos.scenario.Scenarios;
import dev.redlock.chaos.scenario.Tuning;
import dev.redlock.testkit.RedisBinary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.TestAbortedException;

/**
 * The chaos suite as JUnit 5 tests in your own build: one dynamic test per chosen scenario, run with your tuned
 * settings ({@link Builder#config}), that fails when the scenario contradicts its claim (with the reasons and the
 * seed that replays it) and is reported skipped (aborted) when the nodes cannot serve it. Nodes are embedded
 * {@code redis-server} processes behind an in-JVM Toxiproxy by default, or your own nodes, each reached through an
 * existing proxy of a Toxiproxy server ({@link Builder#nodes}, {@link Builder#toxiproxy}: the
 * {@code docker-compose.redlock.yml} set-up). After each scenario {@code report.html}, {@code results.txt} and the stored histories
 * ({@link RunDirectory}) are
 * (re)written to the report directory.
 *
 * <pre>{@code
 * class RedlockChaosIT {
 *     @TestFactory
 *     Stream<DynamicTest> chaos() {
 *         return ChaosSuite.builder().scenarios("1", "12").config(Path.of("src/test/resources/redlock.properties")).tests();
 *     }
 * }
 * }</pre>
 *
 * <p>At run time, system properties (or environment variables) win over the builder, so one test class runs on
 * embedded nodes on a laptop and on the compose nodes in CI: {@code redlock.chaos.scenarios}
 * ({@code REDLOCK_CHAOS_SCENARIOS}), {@code redlock.chaos.config} ({@code REDLOCK_CHAOS_CONFIG}),
 * {@code redlock.chaos.nodes} ({@code REDLOCK_CHAOS_NODES}, comma-separated), {@code redlock.chaos.toxiproxy}
 * ({@code REDLOCK_CHAOS_TOXIPROXY}), {@code redlock.chaos.server} ({@code REDLOCK_CHAOS_SERVER}: the server binary
 * the embedded nodes run, a path or {@code embedded-6.2} / {@code embedded-7.0}; default {@code $REDIS_SERVER}, else
 * {@code redis-server} or {@code valkey-server} on the PATH, else the bundled Redis 6.2.11) and
 * {@code redlock.chaos.report} ({@code REDLOCK_CHAOS_REPORT}). See {@code docs/ci/} for the CI recipe.
 *
 * <p>What it does not do: run scenarios in parallel (they share the machine and the Toxiproxy server), or touch a
 * key outside {@code chaos:} on your nodes (those are deleted before and after each scenario). Scenarios that kill,
 * pause or restart a node, or need per-client proxies, are skipped on your own nodes. Not thread-safe.
 */
public final class ChaosSuite {
    private final List<Scenario> planned;
    private final List<String> kept;
    private final List<String> nodes;
    private final String toxiproxyUrl;
    private final Path reportDir;
    private final Path server;
    private final List<ScenarioResult> results = new ArrayList<>();
    private Toxiproxy toxiproxy;

    private ChaosSuite(List<Scenario> planned, List<String> kept, List<String> nodes, String toxiproxyUrl, Path reportDir,
                       Path server) {
        this.planned = planned;
        this.kept = kept;
        this.nodes = nodes;
        this.toxiproxyUrl = toxiproxyUrl;
        this.reportDir = reportDir;
        this.server = server;
    }

    public static Builder builder() {
        return new Builder(System::getProperty, System::getenv);
    }

    static Builder builder(Function<String, String> properties, Function<String, String> environment) {
        return new Builder(properties, environment);
    }

    /** These scenarios as they are, on embedded nodes (tests of the entry point itself). */
    static ChaosSuite of(List<Scenario> scenarios, Path reportDir) {
        return new ChaosSuite(List.copyOf(scenarios), List.of(), List.of(), null, reportDir, null);
    }

    /** The scenarios as planned, with the settings they will run with. */
    public List<Scenario> scenarios() {
        return planned;
    }

    /** The server binary the embedded nodes run; null: the default ({@code RedisBinary.path()}). */
    public Path server() {
        return server;
    }

    /** One line per scenario that keeps a setting of its own in a tuned run, and why. */
    public List<String> kept() {
        return kept;
    }

    /** One dynamic test per scenario, run in order when JUnit executes it. */
    public Stream<DynamicTest> tests() {
        kept.forEach(k -> System.out.println("[chaos] " + k));
        return planned.stream().map(s -> DynamicTest.dynamicTest(s.id() + " " + s.name() + " (expected " + s.expected()
                + ")", () -> run(s)));
    }

    private void run(Scenario s) {
        ScenarioResult r = ScenarioRunner.run(s, toxiproxy(), nodes, server);
        results.add(r);
        writeReport();
        if (r.isSkipped()) throw new TestAbortedException("scenario " + s.id() + " skipped: " + r.skipped());
        if (!r.passed()) {
            Assertions.fail("scenario " + s.id() + " (" + s.name() + ") contradicts its claim " + s.expected() + ": "
                    + String.join("; ", r.failures()) + "; observed " + r.observed() + ", seed " + r.seed()
                    + " (replay: -Dchaos.seed=" + r.seed() + ")\n" + r.describe());
        }
    }

    private Toxiproxy toxiproxy() {
        if (toxiproxy == null) toxiproxy = toxiproxyUrl == null ? Toxiproxy.shared() : Toxiproxy.connect(toxiproxyUrl, "redlock.chaos.toxiproxy");
        return toxiproxy;
    }

    private void writeReport() {
        try {
            RunDirectory.write(reportDir, results, "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chaos report to " + reportDir, e);
        }
    }

    /**
     * Which scenarios, with what settings, on which nodes. Mutable; {@link #build()} (or {@link #tests()}) validates.
     * Not thread-safe.
     */
    public static final class Builder {
        private final Function<String, String> properties;
        private final Function<String, String> environment;
        private List<String> ids = List.of();
        private Path config;
        private List<String> nodes = List.of();
        private String toxiproxy;
        private String server;
        private Path reportDir = Path.of("target", "chaos-report");

        private Builder(Function<String, String> properties, Function<String, String> environment) {
            this.properties = properties;
            this.environment = environment;
        }

        /** Scenario ids ({@code java -jar redlock-chaos.jar list}); none = every scenario. */
        public Builder scenarios(String... ids) {
            this.ids = List.of(ids);
            return this;
        }

        /** Tuned settings, e.g. the doctor's {@code --write} file; see {@link Tuning}. */
        public Builder config(Path file) {
            this.config = file;
            return this;
        }

        /** Your nodes, each the listen address of an existing proxy of {@link #toxiproxy}; none = embedded nodes. */
        public Builder nodes(List<String> uris) {
            this.nodes = List.copyOf(uris);
            return this;
        }

        /** The Toxiproxy API your nodes' proxies belong to, e.g. {@code http://127.0.0.1:8474}. */
        public Builder toxiproxy(String url) {
            this.toxiproxy = url;
            return this;
        }

        /**
         * The server the embedded nodes run: the path of a {@code redis-server} or {@code valkey-server}, or
         * {@code embedded-6.2} / {@code embedded-7.0} (the bundled Redis 6.2.11 / 7.0.15); default as the testkit
         * finds one.
         */
        public Builder server(String pathOrBundledId) {
            this.server = pathOrBundledId;
            return this;
        }

        /** Where {@code report.html} and {@code results.txt} go; default {@code target/chaos-report}. */
        public Builder reportDir(Path dir) {
            this.reportDir = dir;
            return this;
        }

        /** {@link #build()}{@code .tests()}. */
        public Stream<DynamicTest> tests() {
            return build().tests();
        }

        /**
         * Resolves run-time overrides, loads the config, plans the scenarios.
         *
         * @throws IllegalArgumentException naming the setting: an unknown scenario id, a bad config value, nodes
         *                                  without a Toxiproxy, a malformed node URI, a server that is neither an
         *                                  executable nor a bundled one
         */
        public ChaosSuite build() {
            List<String> chosenIds = list(setting("redlock.chaos.scenarios"), ids);
            String configPath = setting("redlock.chaos.config");
            Path cfg = configPath != null ? Path.of(configPath) : config;
            List<String> uris = list(setting("redlock.chaos.nodes"), nodes);
            String tp = setting("redlock.chaos.toxiproxy") != null ? setting("redlock.chaos.toxiproxy") : toxiproxy;
            String report = setting("redlock.chaos.report");
            Path dir = report != null ? Path.of(report) : reportDir;
            String serverSpec = setting("redlock.chaos.server") != null ? setting("redlock.chaos.server") : server;
            Path binary;
            try {
                binary = serverSpec == null ? null : RedisBinary.resolve(serverSpec);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("redlock.chaos.server: " + e.getMessage(), e);
            }
            if (!uris.isEmpty() && tp == null) {
                throw new IllegalArgumentException("redlock.chaos.nodes needs redlock.chaos.toxiproxy: your nodes are "
                        + "reached only through their proxies (docker-compose.redlock.yml: http://127.0.0.1:8474)");
            }
            for (String u : uris) ExternalServer.of(u);   // IllegalArgumentException naming a malformed URI
            List<Scenario> chosen = new ArrayList<>();
            try {
                if (chosenIds.isEmpty()) chosen.addAll(Scenarios.all());
                else for (String id : chosenIds) chosen.addAll(Scenarios.select(id));
            } catch (NoSuchElementException e) {
                throw new IllegalArgumentException("redlock.chaos.scenarios: " + e.getMessage(), e);
            }
            Tuning tuning = cfg == null ? null : Tuning.load(cfg);
            List<Scenario> planned = new ArrayList<>();
            List<String> kept = new ArrayList<>();
            if (tuning != null) kept.add("tuned: " + tuning);
            for (Scenario s : chosen) {
                Scenario p = s;
                if (tuning != null) {
                    Tuning.Tuned t = tuning.apply(s);
                    if (!t.kept().isEmpty()) kept.add(s.id() + " keeps its own " + String.join(", ", t.kept()));
                    p = t.scenario();
                }
                if (!uris.isEmpty() && p.settings().nodes() != uris.size()) {
                    int n = uris.size();
                    p = p.withSettings(p.settings().toBuilder().nodes(n).quorum(n / 2 + 1).build());
                }
                planned.add(p);
            }
            return new ChaosSuite(List.copyOf(planned), List.copyOf(kept), uris, tp, dir, binary);
        }

        /** A system property, else the environment variable of the same name (upper case, dots as underscores). */
        private String setting(String property) {
            String v = properties.apply(property);
            if (v == null || v.isBlank()) v = environment.apply(property.toUpperCase(Locale.ROOT).replace('.', '_'));
            return v == null || v.isBlank() ? null : v.trim();
        }

        private static List<String> list(String commaSeparated, List<String> fallback) {
            if (commaSeparated == null) return fallback;
            return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
        }
    }
}
