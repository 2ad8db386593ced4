package dev.redlock.chaos.cli;

import dev.redlock.chaos.proxy.ToxiproxyServer;
import dev.redlock.chaos.report.HtmlReport;
import dev.redlock.chaos.report.TextReport;
import dev.redlock.chaos.scenario.Scenario;
import dev.redlock.chaos.scenario.ScenarioResult;
import dev.redlock.chaos.scenario.ScenarioRunner;
import dev.redlock.chaos.scenario.Scenarios;
import dev.redlock.chaos.scenario.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code java -jar redlock-chaos.jar}: runs the chaos scenarios and writes the report, or serves the in-JVM Toxiproxy.
 * Exit codes: 0 every scenario behaved as it claims, 1 at least one contradicted its claim, 2 bad arguments.
 */
@Command(name = "redlock-chaos", mixinStandardHelpOptions = true, version = "redlock-chaos 0.1.0",
        description = "Fault injection for Redlock on real redis-server processes behind Toxiproxy.",
        subcommands = {ChaosCli.Run.class, ChaosCli.ListScenarios.class, ChaosCli.ServeToxiproxy.class})
public final class ChaosCli implements Runnable {

    public static void main(String[] args) {
        int code = new CommandLine(new ChaosCli()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        System.exit(code);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    static Duration duration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("p")) return Duration.parse(v.trim());
            if (s.endsWith("ms")) return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            if (s.endsWith("s")) return Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
            return Duration.ofMillis(Long.parseLong(s));
        } catch (RuntimeException e) {
            throw new CommandLine.TypeConversionException("'" + v + "' is not a duration (e.g. 300ms, 2s, PT2S)");
        }
    }

    /** Runs all or chosen scenarios, prints the table, writes the HTML report. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run scenarios (default: all) against embedded redis-server processes, or the given nodes.")
    static final class Run implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "SCENARIO", description = "Scenario ids (1..14, 4a, 4b, 4c); default all.")
        List<String> ids = new ArrayList<>();

        @Option(names = "--nodes", split = ",", paramLabel = "URI",
                description = "Redis masters to use instead of embedded ones, each reached through a proxy of --toxiproxy "
                        + "(e.g. the docker-compose.redlock.yml setup). Scenarios that need to kill, pause or restart "
                        + "a node, or per-client proxies, are skipped.")
        List<String> nodes = new ArrayList<>();

        @Option(names = "--toxiproxy", paramLabel = "URL",
                description = "A running Toxiproxy API (default: TOXIPROXY_URL, a toxiproxy-server on PATH, Docker, else in-JVM).")
        String toxiproxy;

        @Option(names = "--quorum", description = "Override the quorum of every scenario.")
        Integer quorum;

        @Option(names = "--drift-factor", description = "Override the clients' drift factor.")
        Double driftFactor;

        @Option(names = "--ttl", converter = DurationConverter.class, description = "Override the lease TTL (e.g. 300ms).")
        Duration ttl;

        @Option(names = "--node-timeout", converter = DurationConverter.class, description = "Override the per-node timeout.")
        Duration nodeTimeout;

        @Option(names = "--clients", description = "Override the number of workload clients.")
        Integer clients;

        @Option(names = "--duration", converter = DurationConverter.class, description = "Override the workload phase length.")
        Duration duration;

        @Option(names = "--seed", description = "Seed every scenario (replays a run).")
        Long seed;

        @Option(names = "--report", defaultValue = "chaos-report", paramLabel = "DIR",
                description = "Where report.html and results.txt go (default: ${DEFAULT-VALUE}).")
        Path reportDir;

        @Override
        public Integer call() throws Exception {
            List<Scenario> chosen = new ArrayList<>();
            try {
                if (ids.isEmpty()) chosen.addAll(Scenarios.all());
                else for (String id : ids) chosen.add(Scenarios.byId(id));
            } catch (java.util.NoSuchElementException e) {
                System.err.println(e.getMessage());
                return 2;
            }
            if (toxiproxy != null) {
                System.setProperty("toxiproxy.url", toxiproxy);
                System.setProperty("chaos.toxiproxy", "env");
            }
            if (!nodes.isEmpty()) {
                if (toxiproxy == null) {
                    System.err.println("--nodes needs --toxiproxy: the harness reaches external nodes only through their proxies");
                    return 2;
                }
                System.setProperty("chaos.nodes", String.join(",", nodes));
            }
            List<ScenarioResult> results = new ArrayList<>();
            Progress progress = new Progress(chosen.size());
            progress.start();
            try {
                for (Scenario s : chosen) {
                    Scenario run = s.withSettings(override(s.settings()));
                    progress.begin(run);
                    ScenarioResult r = ScenarioRunner.run(run);
                    progress.done(r);
                    results.add(r);
                }
            } finally {
                progress.stop();
            }
            String table = TextReport.table(results);
            System.out.println();
            System.out.print(table);
            java.nio.file.Files.createDirectories(reportDir);
            java.nio.file.Files.writeString(reportDir.resolve("results.txt"), table);
            Path html = HtmlReport.write(reportDir.resolve("report.html"), results, "redlock chaos report");
            System.out.println("HTML report: " + html.toAbsolutePath());
            return results.stream().allMatch(ScenarioResult::passed) ? 0 : 1;
        }

        Settings override(Settings s) {
            int n = s.nodes();
            int q = quorum != null ? quorum : s.quorum();
            if (q <= n / 2 || q > n) throw new CommandLine.ParameterException(new CommandLine(this),
                    "--quorum must satisfy N/2 < quorum <= N (N=" + n + "), got " + q);
            Settings out = new Settings(n, q, driftFactor != null ? driftFactor : s.driftFactor(), s.fixedDrift(),
                    s.ttl(), s.nodeTimeout(), s.clients(), s.duration(), s.rounds(), s.seed(), s.aof(),
                    s.restartQuarantine(), s.clockNode(), s.ownProxies());
            if (ttl != null) out = out.withTtl(ttl);
            if (nodeTimeout != null) out = out.withNodeTimeout(nodeTimeout);
            if (clients != null) out = out.withClients(clients);
            if (duration != null) out = out.withDuration(duration);
            if (seed != null) out = out.withSeed(seed);
            return out;
        }
    }

    /** Lists the scenarios and what each claims. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the scenarios and their expected outcomes.")
    static final class ListScenarios implements Callable<Integer> {
        @Override
        public Integer call() {
            for (Scenario s : Scenarios.all()) {
                System.out.printf(Locale.ROOT, "%-4s %-10s %-40s %s%n", s.id(), s.expected(), s.name(), s.fault());
            }
            return 0;
        }
    }

    /** Serves the in-JVM Toxiproxy until stopped, for people who have neither Docker nor the Go binary. */
    @Command(name = "toxiproxy-server", mixinStandardHelpOptions = true,
            description = "Serve the in-JVM Toxiproxy-compatible HTTP API until stopped (Ctrl-C).")
    static final class ServeToxiproxy implements Callable<Integer> {
        @Option(names = "--host", defaultValue = "127.0.0.1", description = "Bind address (default: ${DEFAULT-VALUE}).")
        String host;

        @Option(names = "--port", defaultValue = "8474", description = "API port (default: ${DEFAULT-VALUE}).")
        int port;

        @Override
        public Integer call() throws InterruptedException {
            ToxiproxyServer server = ToxiproxyServer.start(host, port);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close();
                stopped.countDown();
            }, "toxiproxy-server-stop"));
            System.out.println("toxiproxy-compatible server listening on " + host + ":" + server.port()
                    + " (API " + server.url() + "); Ctrl-C to stop");
            try {
                stopped.await();
            } finally {
                server.close();   // also when the waiting thread is interrupted (idempotent)
            }
            return 0;
        }
    }

    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return duration(value);
        }
    }
}
