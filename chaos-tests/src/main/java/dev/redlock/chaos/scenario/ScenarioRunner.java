package dev.redlock.chaos.scenario;

import dev.redlock.RedlockConfig;
import dev.redlock.chaos.checker.Checker;
import dev.redlock.chaos.checker.Result;
import dev.redlock.chaos.checker.Validity;
import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.FaketimeServer;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.cluster.Toxiproxy;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.ClockMode;
import dev.redlock.chaos.nemesis.Nemesis;
import dev.redlock.chaos.oracle.NodeSampler;
import dev.redlock.chaos.workload.Resource;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link Scenario} end to end and returns its {@link ScenarioResult}: starts the cluster behind Toxiproxy,
 * creates the clients (one {@code Redlock} each, warmed up), runs the script, heals every fault, stops everything
 * (by pid, also on failure), then checks the history and judges the scenario's claim. While the script runs, a
 * {@link NodeSampler} reads every node's own view of the lock key (straight from its port) into the history, the
 * ground truth the checkers compare the clients' beliefs with.
 *
 * <p>Against external nodes ({@link #run(Scenario, Toxiproxy, List)} with node URIs, each the listen address of an
 * existing proxy of {@code toxiproxy}): the cluster is {@link ChaosCluster#attach attached} instead of started, the
 * lock keys under {@code chaos:} are deleted before and after the run, clock faults are simulated, and a
 * scenario whose {@link Scenario#needs() needs} the cluster cannot meet (process control, per-client proxies, a node
 * count) is not run: its result is SKIPPED with the reason ({@link #whyNotRunnable}).
 *
 * <p>Seeds: {@code -Dchaos.seed=<n>} replays a run; otherwise the scenario's own seed, or a fresh one when that is 0.
 * The seed is printed before the run starts. Not thread-safe: run scenarios one after another (they share the
 * machine's two cores and the Toxiproxy server).
 */
public final class ScenarioRunner {
    private static final Logger log = LoggerFactory.getLogger(ScenarioRunner.class);
    static final String KEY_PREFIX = "chaos:";
    static final String LOCK_NAME = "resource";
    /** How often the ground-truth sampler reads each node (see {@link NodeSampler}). */
    static final Duration SAMPLE_INTERVAL = Duration.ofMillis(5);

    private ScenarioRunner() {}

    /** Runs on the JVM-wide Toxiproxy ({@link Toxiproxy#shared()}). */
    public static ScenarioResult run(Scenario s) {
        return run(s, Toxiproxy.shared());
    }

    /** Runs on the given Toxiproxy server, on embedded nodes. */
    public static ScenarioResult run(Scenario scenario, Toxiproxy toxiproxy) {
        return run(scenario, toxiproxy, List.of());
    }

    /**
     * Why {@code s} cannot run on embedded nodes ({@code external} false) or on external ones; null when it can.
     */
    public static String whyNotRunnable(Scenario s, boolean external) {
        List<String> why = s.needs().unmet(s.settings(), !external, !external);
        return why.isEmpty() ? null : String.join("; ", why);
    }

    /**
     * Runs on the given Toxiproxy server: on embedded nodes of the default server ({@link RedisBinary#path()}) when
     * {@code externalNodes} is empty, else on those nodes (their count must be the scenario's N). A scenario that
     * cannot run there is returned SKIPPED, untouched.
     */
    public static ScenarioResult run(Scenario scenario, Toxiproxy toxiproxy, List<String> externalNodes) {
        return run(scenario, toxiproxy, externalNodes, null);
    }

    /**
     * As {@link #run(Scenario, Toxiproxy, List)}, the embedded nodes running {@code server} (null: the default
     * server). A clock fault runs under libfaketime only when the node's clock is seen to move under it
     * ({@link FaketimeServer#start}); otherwise simulated, and the result's clock mode says why.
     */
    public static ScenarioResult run(Scenario scenario, Toxiproxy toxiproxy, List<String> externalNodes, Path server) {
        boolean external = !externalNodes.isEmpty();
        String toxiproxyMode = toxiproxy.mode()
                + (toxiproxy.skipped().isEmpty() ? "" : " (skipped: " + toxiproxy.skipped() + ")")
                + (external ? "; external nodes " + externalNodes.size() + " through existing proxies" : "");
        String why = whyNotRunnable(scenario, external);
        if (why == null && external && scenario.settings().nodes() != externalNodes.size()) {
            why = "set for N=" + scenario.settings().nodes() + " nodes, " + externalNodes.size() + " given";
        }
        if (why == null && scenario.needs().keptConnections() && !toxiproxy.canKeepConnections()) {
            why = "needs a proxy that moves open client connections to a new upstream: only the in-JVM Toxiproxy "
                    + "has that (harness-only) mode, this is " + toxiproxy.mode();
        }
        if (why != null) {
            ScenarioResult r = ScenarioResult.skipped(scenario, why, toxiproxyMode);
            System.out.println("[chaos] " + r.summary());
            return r;
        }
        long seed = seedFor(scenario);
        Scenario s = scenario.withSeed(seed);
        Settings st = s.settings();
        System.out.println("[chaos] scenario " + s.id() + " (" + s.name() + ") seed=" + seed
                + "  replay: -Dchaos.seed=" + seed);
        long t0 = System.nanoTime();
        History history = new History(st.nodes(), st.quorum());
        String[] clockMode = {"none"};
        ClockMode mode = ClockMode.SIMULATED_TTL;
        Path binary = external ? null : server != null ? server : RedisBinary.path();
        IntFunction<RedisProcess> factory = i -> ChaosCluster.plainNode(binary, st.aof());
        if (st.clockNode() >= 0) {
            Path lib = FaketimeServer.library();
            if (external) {
                clockMode[0] = "simulated-ttl (external nodes)";
            } else if (lib == null) {
                clockMode[0] = "simulated-ttl (" + FaketimeServer.whyNoLibrary() + ")";
            } else {
                factory = i -> {
                    if (i != st.clockNode()) return ChaosCluster.plainNode(binary, st.aof());
                    try {
                        FaketimeServer f = FaketimeServer.start(lib, binary, st.aof());
                        clockMode[0] = "faketime (" + lib + ", " + f.binary() + "; " + f.verified() + ")";
                        return f;
                    } catch (FaketimeServer.NoEffect e) {
                        clockMode[0] = "simulated-ttl (" + e.getMessage() + ")";
                    } catch (RuntimeException e) {
                        clockMode[0] = "simulated-ttl (faketime failed: " + e.getMessage() + ")";
                    }
                    return ChaosCluster.plainNode(binary, st.aof());
                };
            }
        }
        List<WorkloadClient> clients = new ArrayList<>();
        List<Check> checks = List.of();
        String error = null;
        ChaosCluster cluster = null;
        Nemesis nemesis = null;
        NodeSampler sampler = null;
        try {
            if (external) {
                cluster = ChaosCluster.attach(toxiproxy, externalNodes);
                deleteLockKeys(cluster);   // a previous run's keys would hold the lock or skew fencing tokens
            } else {
                cluster = ChaosCluster.start(toxiproxy, st.nodes(), binary, factory);
            }
            if (clockMode[0].startsWith("faketime")) mode = ClockMode.FAKETIME;
            Resource resource = new Resource(history);
            nemesis = new Nemesis(cluster, history, resource, mode, KEY_PREFIX);
            if (!nemesis.skipped().isEmpty()) {
                System.out.println("[chaos] nemesis leaves out " + nemesis.skipped() + " (" + Nemesis.SKIP_PROPERTY + ")");
            }
            for (int i = 0; i < st.clients(); i++) {
                ProxySet set = st.ownProxies().contains(i) ? ProxySet.ofClient(i) : ProxySet.MAIN;
                clients.add(new WorkloadClient(i, config(st, cluster.uris(set)), history, resource, LOCK_NAME));
            }
            if (st.guardOn()) clients.get(0).redlock().markNodesFresh();
            for (WorkloadClient c : clients) c.warmUp(st.ttl());
            ScenarioContext ctx = new ScenarioContext(st, cluster, nemesis, history, resource, clients, KEY_PREFIX);
            sampler = new NodeSampler(ctx::servedBy, cluster.size(), KEY_PREFIX + LOCK_NAME, history, SAMPLE_INTERVAL)
                    .start();
            history.begin();
            try {
                s.script().run(ctx);
            } finally {
                history.end();
                nemesis.healAll();
                sampler.close();
                checks = ctx.checks();
            }
        } catch (Exception | AssertionError e) {
            StringWriter w = new StringWriter();
            e.printStackTrace(new PrintWriter(w));
            error = w.toString();
            log.warn("scenario {} failed to run", s.id(), e);
        } finally {
            if (sampler != null) sampler.close();
            if (nemesis != null) nemesis.healAll();
            for (WorkloadClient c : clients) {
                try {
                    c.close();
                } catch (RuntimeException e) {
                    log.debug("closing {}", c, e);
                }
            }
            if (cluster != null) {
                try {
                    if (cluster.external()) deleteLockKeys(cluster);
                } catch (RuntimeException e) {
                    log.warn("could not delete the lock keys of scenario {} on the external nodes", s.id(), e);
                }
                try {
                    cluster.close();
                } catch (RuntimeException e) {
                    log.warn("stopping the cluster of scenario {} failed", s.id(), e);
                }
            }
        }
        ScenarioResult r = judged(s.id(), s.name(), s.fault(), s.expected(), checks, history, toxiproxyMode,
                clockMode[0], seed, st, (System.nanoTime() - t0) / 1_000_000, error);
        System.out.println("[chaos] " + r.summary());
        return r;
    }

    /**
     * Judges a stored run again: every checker on its history, then the claim against what they find, with the
     * scripted checks and harness error as they were recorded (those cannot be re-run without the cluster). A
     * skipped result comes back unchanged.
     */
    public static ScenarioResult recheck(ScenarioResult stored) {
        if (stored.isSkipped()) return stored;
        return judged(stored.id(), stored.name(), stored.fault(), stored.expected(), stored.checks(), stored.history(),
                stored.toxiproxyMode(), stored.clockMode(), stored.seed(), stored.settings(), stored.durationMs(),
                stored.error());
    }

    private static ScenarioResult judged(String id, String name, String fault, Expectation expected, List<Check> checks,
                                         History history, String toxiproxyMode, String clockMode, long seed,
                                         Settings st, long durationMs, String error) {
        Result verdict = Checker.standard().check(history);
        Counts counts = Counts.from(verdict);
        boolean unknown = verdict.parts().stream().filter(p -> !p.checker().equals("liveness"))
                .anyMatch(p -> p.validity() == Validity.UNKNOWN);
        Outcome observed = unknown ? Outcome.UNKNOWN : counts.lockViolation() ? Outcome.VIOLATION : Outcome.NONE;
        List<String> failures = judge(expected, observed, counts, checks, error);
        return new ScenarioResult(id, name, fault, expected, observed, failures.isEmpty(), failures, counts, checks,
                verdict, history, history.faults(), toxiproxyMode, clockMode, seed, st, durationMs, error);
    }

    /**
     * Why a run contradicts its claim (empty when it holds it). Every claim: no harness error, no UNKNOWN, no stale
     * write accepted by the fenced store, no leaked key, no failed scripted check. A VIOLATION claim needs the
     * violation in the unfenced run and a stale write refused by the fenced store; tokens may go backwards in such a
     * run (a second holder granted on a node that lost its fences is how d1b shows the violation), which the fenced
     * store must absorb. A SAFE or REFUSED claim says the lock holds, so nothing may overlap, no lease may be believed
     * without a majority, nothing stale may be accepted even unfenced, no update may be lost, and fencing tokens
     * strictly increase across holders.
     */
    static List<String> judge(Expectation expected, Outcome observed, Counts c, List<Check> checks, String error) {
        List<String> why = new ArrayList<>();
        if (error != null) why.add("harness error: " + error.lines().findFirst().orElse(error));
        if (observed == Outcome.UNKNOWN) why.add("a checker could not decide (UNKNOWN)");
        if (c.staleAcceptedFenced() > 0) why.add("the fenced store accepted " + c.staleAcceptedFenced() + " stale write(s)");
        if (c.keyLeaks() > 0) why.add(c.keyLeaks() + " lock key(s) outlived what the library accounts for (ground truth)");
        if (expected == Expectation.VIOLATION) {
            if (observed == Outcome.NONE) {
                why.add("violation expected but the unfenced run showed none: the fault did not bite");
            }
            if (c.staleRejectedFenced() <= 0) why.add("violation expected but the fenced store rejected no stale write");
        } else {
            if (c.violations() > 0) why.add(c.violations() + " mutual-exclusion violation(s)");
            if (c.unheld() > 0) why.add(c.unheld() + " lease(s) believed held while no majority of nodes held them (ground truth)");
            if (c.tokenInversions() > 0) why.add(c.tokenInversions() + " fencing token(s) not above an earlier holder's");
            if (c.staleAcceptedUnfenced() > 0) why.add(c.staleAcceptedUnfenced() + " stale write(s) accepted (unfenced)");
            if (c.lostUpdates() > 0) why.add(c.lostUpdates() + " lost update(s)");
        }
        for (Check k : checks) if (!k.passed()) why.add("check failed: " + k.name() + " (" + k.detail() + ")");
        return why;
    }

    static RedlockConfig config(Settings st, List<String> uris) {
        return RedlockConfig.builder()
                .nodes(uris)
                .quorum(st.quorum())
                .driftFactor(st.driftFactor())
                .fixedDrift(st.fixedDrift())
                .nodeTimeout(st.nodeTimeout())
                .retryCount(0)
                .retryDelay(Duration.ZERO)
                .retryJitter(Duration.ZERO)
                .keyPrefix(KEY_PREFIX)
                .fencing(true)
                .restartQuarantine(st.restartQuarantine())
                .build();
    }

    /** {@code -Dchaos.seed}, else the scenario's seed, else a fresh one. */
    public static long seedFor(Scenario s) {
        String p = System.getProperty("chaos.seed");
        if (p != null && !p.isBlank()) return Long.parseLong(p.trim());
        if (s.settings().seed() != 0) return s.settings().seed();
        long seed;
        do {
            seed = new SecureRandom().nextLong() & 0xFFFF_FFFFL;
        } while (seed == 0);
        return seed;
    }

    /** Deletes every key under {@code chaos:} on every node (through the node's proxy). */
    private static void deleteLockKeys(ChaosCluster cluster) {
        for (RedisProcess n : cluster.nodes()) {
            for (String k : n.keys(KEY_PREFIX + "*")) n.command("DEL", k);
        }
    }
}
