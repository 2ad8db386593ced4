package dev.redlock.chaos.cli;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.ExternalServer;
import dev.redlock.chaos.cluster.Toxiproxy;
import dev.redlock.chaos.proxy.ToxiproxyServer;
import dev.redlock.chaos.report.RunDirectory;
import dev.redlock.chaos.report.TextReport;
import dev.redlock.chaos.scenario.Scenario;
import dev.redlock.chaos.scenario.ScenarioResult;
import dev.redlock.chaos.scenario.ScenarioRunner;
import dev.redlock.chaos.scenario.Scenarios;
import dev.redlock.chaos.scenario.Settings;
import dev.redlock.chaos.scenario.Tuning;
import dev.redlock.doctor.DoctorCommand;
import dev.redlock.internal.Durations;
import dev.redlock.testkit.RedisBinary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import eu.rekawek.toxiproxy.Proxy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code java -jar redlock-chaos.jar}: runs the chaos scenarios and writes the report, serves the in-JVM Toxiproxy, or
 * examines nodes and recommends settings ({@code doctor}, see {@link DoctorCommand} for its exit codes), or runs the
 * deterministic simulator ({@code simulate}, see {@link SimulateCommand}).
 * Exit codes: 0 every scenario that ran behaved as it claims (skipped ones do not count), 1 at least one contradicted
 * its claim, 2 bad arguments (including {@code --nodes} that match no proxy of {@code --toxiproxy}).
 */
@Command(name = "redlock-chaos", mixinStandardHelpOptions = true, version = "redlock-chaos 0.1.0",
        description = "Fault injection for Redlock on real redis-server processes behind Toxiproxy.",
        subcommands = {ChaosCli.Run.class, ChaosCli.ListScenarios.class, ChaosCli.ServeToxiproxy.class,
                DoctorCommand.class, SimulateCommand.class, AnalyzeCommand.class})
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
        try {
            return Durations.parse("'" + v + "'", v);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + v + "' is not a duration (e.g. 300ms, 2s, PT2S)");
        }
    }

    /** Runs all or chosen scenarios, prints the table, writes the HTML report. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run scenarios (default: all) against embedded redis-server processes, or the given nodes.")
    static final class Run implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "SCENARIO", description = "Scenario ids (1..14, 4a, 4b, 4c, d1a..d11b (d8: d8a and d8b), W1..W3, L1; see list); default all.")
        List<String> ids = new ArrayList<>();

        @Option(names = "--nodes", split = ",", paramLabel = "URI",
                description = "Redis masters to use instead of embedded ones: the addresses clients use, each the listen "
                        + "address (matched by port) of an existing proxy of --toxiproxy (e.g. the "
                        + "docker-compose.redlock.yml setup). N becomes the number of nodes, quorum N/2+1 unless "
                        + "--quorum. Scenarios that need to kill, pause or restart a node, or per-client proxies, "
                        + "are SKIPPED.")
        List<String> nodes = new ArrayList<>();

        @Option(names = "--toxiproxy", paramLabel = "URL",
                description = "A running Toxiproxy API, e.g. http://127.0.0.1:8474 (default: TOXIPROXY_URL, a "
                        + "toxiproxy-server on PATH, Docker, else in-JVM). Without --nodes it must run on this "
                        + "machine: the embedded nodes' proxies dial 127.0.0.1.")
        String toxiproxy;

        @Option(names = "--config", paramLabel = "FILE",
                description = "Tuned settings (e.g. the doctor's --write): N (redlock.nodes counted, never contacted), "
                        + "quorum, driftFactor, fixedDrift, nodeTimeout, restartQuarantine, and chaos.ttl for the lease "
                        + "TTL. A scenario whose claim depends on one of them keeps its own value and says so. The "
                        + "options below override the file.")
        Path config;

        @Option(names = "--quorum", description = "Override the quorum of every scenario.")
        Integer quorum;

        @Option(names = "--drift-factor", description = "Override the clients' drift factor.")
        Double driftFactor;

        @Option(names = "--ttl", converter = DurationConverter.class, description = "Override the lease TTL (e.g. 300ms).")
        Duration ttl;

        @Option(names = "--node-timeout", converter = DurationConverter.class, description = "Override the per-node timeout.")
        Duration nodeTimeout;

        @Option(names = "--clients", description = "Override the number of workload clients (the own proxies of "
                + "clients beyond it are dropped).")
        Integer clients;

        @Option(names = "--duration", converter = DurationConverter.class, description = "Override the workload phase length.")
        Duration duration;

        @Option(names = "--seed", description = "Seed every scenario (replays a run).")
        Long seed;

        @Option(names = "--soak", converter = DurationConverter.class, paramLabel = "DURATION",
                description = "Instead of the scenarios: the soak, the contention workload under a seeded random mix of "
                        + "faults (cut, black hole, latency, pause, kill-restart) for this long, e.g. 10m.")
        Duration soak;

        @Option(names = "--server", paramLabel = "PATH",
                description = "The server the embedded nodes run: a redis-server or valkey-server executable, or "
                        + "embedded-6.2 / embedded-7.0 (the bundled Redis 6.2.11 / 7.0.15). Default: $REDIS_SERVER, "
                        + "else redis-server or valkey-server on the PATH, else the bundled Redis 6.2.11.")
        String server;

        @Option(names = "--report", defaultValue = "chaos-report", paramLabel = "DIR",
                description = "Where report.html, results.txt, run.json and histories/ go (default: ${DEFAULT-VALUE}).")
        Path reportDir;

        @Override
        public Integer call() throws Exception {
            List<Scenario> chosen = new ArrayList<>();
            if (soak != null && !ids.isEmpty()) {
                System.err.println("--soak runs the soak alone; give no scenario ids with it");
                return 2;
            }
            try {
                if (soak != null) chosen.add(Scenarios.soak(soak));
                else if (ids.isEmpty()) chosen.addAll(Scenarios.all());
                else for (String id : ids) chosen.addAll(Scenarios.select(id));
            } catch (NoSuchElementException e) {
                System.err.println(e.getMessage());
                return 2;
            }
            List<String> nodeUris = nodes.stream().map(String::trim).filter(u -> !u.isEmpty()).toList();
            boolean external = !nodeUris.isEmpty();
            if (external) {
                if (toxiproxy == null) {
                    System.err.println("--nodes needs --toxiproxy: the harness reaches external nodes only through their proxies");
                    return 2;
                }
                try {
                    for (String u : nodeUris) ExternalServer.of(u);
                } catch (IllegalArgumentException e) {
                    System.err.println(e.getMessage());
                    return 2;
                }
            }
            Tuning tuning = null;
            if (config != null) {
                try {
                    tuning = Tuning.load(config);
                } catch (IllegalArgumentException | UncheckedIOException e) {
                    System.err.println("--config " + e.getMessage());
                    return 2;
                }
                System.err.println("[chaos] tuned: " + tuning);
            }
            Path binary = null;
            if (!external) {
                try {
                    binary = server != null ? RedisBinary.resolve(server) : RedisBinary.path();
                } catch (IllegalArgumentException e) {
                    System.err.println((server != null ? "--server: " : "") + e.getMessage());
                    return 2;
                }
            } else if (server != null) {
                System.err.println("--server names the server of embedded nodes; --nodes are yours");
                return 2;
            }
            List<Scenario> planned = new ArrayList<>();   // bad overrides fail here, before any server is touched
            for (Scenario s : chosen) {
                if (tuning != null) {
                    Tuning.Tuned t;
                    try {
                        t = tuning.apply(s);
                    } catch (IllegalArgumentException e) {
                        System.err.println("--config " + config + ": scenario " + s.id() + ": " + e.getMessage());
                        return 2;
                    }
                    if (!t.kept().isEmpty()) {
                        System.err.println("[chaos]   " + s.id() + " keeps its own " + String.join(", ", t.kept()));
                    }
                    s = t.scenario();
                }
                planned.add(s.withSettings(override(s.settings(), nodeUris.size())));
            }
            Toxiproxy tp;
            if (toxiproxy != null) {
                try {
                    tp = Toxiproxy.connect(toxiproxy, "--toxiproxy");
                } catch (RuntimeException e) {
                    System.err.println("--toxiproxy " + toxiproxy + ": " + e.getMessage()
                            + (e.getCause() != null ? " (" + e.getCause() + ")" : ""));
                    return 2;
                }
            } else {
                tp = Toxiproxy.shared();
            }
            try {
                if (external) {
                    List<Proxy> found;
                    try {
                        found = ChaosCluster.findProxies(tp, nodeUris);
                    } catch (IllegalArgumentException | UncheckedIOException e) {
                        System.err.println(e.getMessage());
                        return 2;
                    }
                    for (int i = 0; i < nodeUris.size(); i++) {
                        System.err.println("[chaos] node " + i + " " + ExternalServer.of(nodeUris.get(i)) + " -> proxy "
                                + found.get(i).getName() + " (listen " + found.get(i).getListen() + ", upstream "
                                + found.get(i).getUpstream() + ")");
                    }
                }
                return runAll(planned, tp, nodeUris, binary);
            } finally {
                if (toxiproxy != null) tp.close();   // stops nothing: the server is not ours
            }
        }

        private int runAll(List<Scenario> planned, Toxiproxy tp, List<String> nodeUris, Path binary) throws IOException {
            boolean external = !nodeUris.isEmpty();
            String serverLine = "server: " + (external ? "your nodes (" + nodeUris.size() + ")" : ChaosCluster.describe(binary));
            System.err.println("[chaos] " + serverLine);
            // decided up front: a scenario the cluster cannot serve is reported, never half-run
            long runnable = planned.stream().filter(s -> ScenarioRunner.whyNotRunnable(s, external) == null).count();
            if (runnable < planned.size()) {
                System.err.println("[chaos] " + runnable + " of " + planned.size() + " scenarios can run on "
                        + (external ? "these external nodes" : "embedded nodes") + "; the others are SKIPPED:");
                for (Scenario s : planned) {
                    String why = ScenarioRunner.whyNotRunnable(s, external);
                    if (why != null) System.err.println("[chaos]   " + s.id() + " " + s.name() + ": " + why);
                }
            }
            List<ScenarioResult> results = new ArrayList<>();
            Progress progress = new Progress(planned.size());
            progress.start();
            try {
                for (Scenario run : planned) {
                    progress.begin(run);
                    ScenarioResult r = ScenarioRunner.run(run, tp, nodeUris, binary);
                    progress.done(r);
                    results.add(r);
                }
            } finally {
                progress.stop();
            }
            String table = TextReport.table(results) + serverLine + "\n";
            System.out.println();
            System.out.print(table);
            Path html = RunDirectory.write(reportDir, results, serverLine + "\n");
            System.out.println("HTML report: " + html.toAbsolutePath());
            System.out.println("histories: " + reportDir.resolve("histories").toAbsolutePath()
                    + " (re-check: redlock-chaos analyze " + reportDir + ")");
            if (results.stream().allMatch(ScenarioResult::isSkipped)) {
                System.out.println("warning: every chosen scenario was skipped; nothing was checked");
            }
            return results.stream().anyMatch(r -> !r.isSkipped() && !r.passed()) ? 1 : 0;
        }

        /**
         * The scenario's settings with the command line's overrides; {@code externalNodes} > 0 sets N (and the quorum
         * to N/2+1 unless {@code --quorum}). A restart quarantine the scenario derives from its TTL follows
         * {@code --ttl}; one set by the scenario or {@code --config} stays. A scenario's own proxies of clients beyond
         * {@code --clients} are dropped with those clients.
         *
         * @throws CommandLine.ParameterException naming the setting, when the result is not a valid {@link Settings}
         */
        Settings override(Settings s, int externalNodes) {
            int n = externalNodes > 0 ? externalNodes : s.nodes();
            Settings.Builder b = s.toBuilder().nodes(n);
            if (quorum != null) b.quorum(quorum);
            else if (n != s.nodes()) b.quorum(n / 2 + 1);
            if (driftFactor != null) b.driftFactor(driftFactor);
            if (ttl != null) b.ttl(ttl);
            if (nodeTimeout != null) b.nodeTimeout(nodeTimeout);
            if (clients != null) {
                b.clients(clients).ownProxies(s.ownProxies().stream().filter(c -> c < clients).collect(Collectors.toSet()));
            }
            if (duration != null) b.duration(duration);
            if (seed != null) b.seed(seed);
            try {
                return b.build();
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "the options give settings the harness cannot run with: " + e.getMessage());
            }
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
