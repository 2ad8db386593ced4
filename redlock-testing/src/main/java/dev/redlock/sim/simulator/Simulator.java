package dev.redlock.sim.simulator;

import dev.redlock.Lease;
import dev.redlock.sim.SimScheduler;
import dev.redlock.sim.SimStalledException;
import dev.redlock.sim.SimTrace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The deterministic simulator: for a seed, a world of 3 or 5 simulated nodes and 2 to 4 real {@code Redlock}
 * clients on one thread and virtual time ({@link Plan}), a workload of acquisitions, fenced writes, extensions,
 * watchdogs, releases and forgotten leases ({@link Workload}), a nemesis's fault schedule within what the
 * configuration tolerates ({@link Nemesis}), and the checker's safety properties at every step ({@link Checker}).
 * Then every fault is healed and each resource must be acquirable again within a bound (liveness). Everything comes
 * from the seed: a run replays exactly ({@link SimulationResult#trace()} is byte for byte the same), and a failing
 * seed's schedule can be shrunk to the faults it needs ({@link #shrink}). Immutable and thread-safe: runs share
 * nothing, so seeds can run on several threads at once.
 *
 * <p>It covers what the model covers (see the module's README): it does not replace the chaos suite on real servers.
 */
public final class Simulator {
    /** How long the liveness check waits after a refused attempt before the next one (virtual time). */
    private static final long RETRY_PAUSE_NS = 25_000_000;

    private final int ops;
    private final boolean trace;
    private final boolean uncappedGuesses;
    private final boolean noAmnesiaGuard;

    private Simulator(int ops, boolean trace, boolean uncappedGuesses, boolean noAmnesiaGuard) {
        if (ops < 1) throw new IllegalArgumentException("ops must be >= 1, got " + ops);
        this.ops = ops;
        this.trace = trace;
        this.uncappedGuesses = uncappedGuesses;
        this.noAmnesiaGuard = noAmnesiaGuard;
    }

    /** Runs of about {@code ops} client operations per seed, untraced. */
    public static Simulator of(int ops) {
        return new Simulator(ops, false, false, false);
    }

    /** The same simulator recording a trace of every run (slower). */
    public Simulator traced() {
        return new Simulator(ops, true, uncappedGuesses, noAmnesiaGuard);
    }

    /** The same simulator with the nodes' cap on guessed tokens switched off (the chaos twins' switch). */
    public Simulator uncappedGuesses() {
        return new Simulator(ops, trace, true, noAmnesiaGuard);
    }

    /**
     * The same simulator with every client's {@code restartQuarantine} set to zero (the amnesia guard off): a
     * known-unsafe configuration once a node restarts without its memory.
     */
    public Simulator withoutAmnesiaGuard() {
        return new Simulator(ops, trace, uncappedGuesses, true);
    }

    public int ops() {
        return ops;
    }

    /** One seed's run. */
    public SimulationResult run(long seed) {
        return run(seed, Set.of());
    }

    /**
     * Removes faults from a failing seed's schedule one at a time, keeping each removal after which the run still
     * breaks a property; returns the traced run of what is left (at most one run per fault of the schedule).
     */
    public SimulationResult shrink(long seed) {
        Plan plan = plan(seed);
        List<Fault> faults = Nemesis.schedule(plan, ops, horizonNs(plan));
        Set<Integer> without = new HashSet<>();
        for (Fault f : faults) {
            without.add(f.index());
            if (!run(seed, without).failed()) without.remove(f.index());
        }
        return traced().run(seed, without);
    }

    SimulationResult run(long seed, Set<Integer> without) {
        Plan plan = plan(seed);
        SimScheduler time = new SimScheduler(seed);
        time.limitTasksPerInstant(1_000_000);
        SimTrace log = new SimTrace(time, trace);
        log.record("seed " + seed + ": " + plan);
        List<Fault> faults = new ArrayList<>();
        for (Fault f : Nemesis.schedule(plan, ops, horizonNs(plan))) if (!without.contains(f.index())) faults.add(f);
        World world = new World(plan, time, log, uncappedGuesses);
        Checker checker = new Checker(time, log, world.store, plan.resources, world.nodes, plan.quorum,
                world.clients[0].redlock.config().keyPrefix());
        if (plan.markedFresh) world.markFresh();
        long startNs = startNs(plan);
        world.schedule(faults, startNs);
        int[] running = {plan.clients};
        List<Workload> workloads = new ArrayList<>();
        int perClient = Math.max(1, (ops + plan.clients - 1) / plan.clients);
        for (World.Client c : world.clients) {
            Workload w = new Workload(c, checker, log, seed, plan.resources, perClient, () -> running[0]--);
            workloads.add(w);
            w.start(startNs / 1_000_000);
        }
        time.scheduleAtFixedRate(checker::sample, startNs, Checker.SAMPLE_NS, java.util.concurrent.TimeUnit.NANOSECONDS);
        long faultsOver = startNs;
        for (Fault f : faults) faultsOver = Math.max(faultsOver, startNs + f.end());
        long hardStop = faultsOver + horizonNs(plan) * 4 + 60_000_000_000L;
        try {
            while ((running[0] > 0 || time.nanoTime() < faultsOver) && time.nanoTime() < hardStop && ok(time, checker)) {
                time.runUntil(time.nanoTime() + 5_000_000);
            }
            if (running[0] > 0 && ok(time, checker)) {
                checker.fail(Violation.Kind.ACQUISITION_HUNG, running[0] + " client(s) still in an operation at the end");
            }
            if (ok(time, checker)) liveness(plan, world, time, checker, log);
        } catch (SimStalledException e) {
            checker.fail(Violation.Kind.STALLED, e.getMessage());
        }
        if (!time.failures().isEmpty() && checker.violations().isEmpty()) {
            checker.fail(Violation.Kind.CRASH, String.valueOf(time.failures().get(0)));
        }
        List<String> faultText = new ArrayList<>();
        for (Fault f : faults) faultText.add(f.toString());
        return new SimulationResult(seed, plan.toString(), faultText, perClient * plan.clients, checker.wins(), time.nanoTime(),
                checker.violations(), log.enabled() ? log.text() : "");
    }

    private Plan plan(long seed) {
        Plan plan = new Plan(seed);
        if (noAmnesiaGuard) plan.withoutQuarantine();
        return plan;
    }

    private static boolean ok(SimScheduler time, Checker checker) {
        return checker.violations().isEmpty() && time.failures().isEmpty();
    }

    /**
     * Liveness: once every fault is healed and the longest TTL has passed, each resource is acquired by a client
     * (retrying) within the strictest quarantine plus twice the longest TTL plus a second: a node that lost its
     * memory starts its quarantine when it is first asked, so that is the longest a healed deployment may refuse.
     */
    private static void liveness(Plan plan, World world, SimScheduler time, Checker checker, SimTrace log) {
        world.healAll();
        log.record("healed: liveness check");
        time.runFor(Duration.ofMillis(plan.maxTtlMs()));
        World.Client c = world.clients[0];
        for (String resource : plan.resources) {
            long bound = time.nanoTime() + (plan.maxQuarantineMs() + 2 * plan.maxTtlMs() + 1000) * 1_000_000;
            String last = "no answer";
            Lease lease = null;
            while (lease == null && time.nanoTime() < bound && ok(time, checker)) {
                CompletableFuture<Lease> got = c.redlock.acquireAsync(resource, Duration.ofMillis(c.plan.maxTtlMs));
                while (!got.isDone() && time.nanoTime() < bound && ok(time, checker)) time.runUntil(time.nanoTime() + 1_000_000);
                if (got.isDone() && !got.isCompletedExceptionally()) {
                    lease = got.join();
                } else if (got.isDone()) {
                    last = got.handle((l, e) -> String.valueOf(e)).join();
                    // a refused attempt is tried again after a pause, as an application would: without it a client
                    // with no retries asks again at once, and the quarantine's seconds cost thousands of rounds
                    time.runUntil(Math.min(bound, time.nanoTime() + RETRY_PAUSE_NS));
                }
            }
            if (!ok(time, checker)) return;
            if (lease == null) {
                checker.fail(Violation.Kind.NOT_LIVE, "c0 could not acquire " + resource + " once healed: " + last);
                return;
            }
            log.record("live " + resource + " token " + lease.fencingToken());
            lease.releaseAsync();
            time.runFor(Duration.ofMillis(c.plan.nodeTimeoutMs * 2));
        }
    }

    /** When the workload starts: after the strictest quarantine (the nodes' memory is brand new at time 0). */
    static long startNs(Plan plan) {
        return (plan.maxQuarantineMs() + 50) * 1_000_000;
    }

    /** About how long the workload runs: its operations at half the longest TTL each, per client. */
    long horizonNs(Plan plan) {
        long perClient = Math.max(1, (ops + plan.clients - 1) / plan.clients);
        return perClient * plan.maxTtlMs() / 2 * 1_000_000;
    }
}
