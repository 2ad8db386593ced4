package dev.redlock.chaos.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The scenarios of the chaos suite table (docs/chaos.md) as code, with the settings they run with (5 nodes, quorum 3, TTLs of 300-1000 ms, so
 * each runs in seconds). Scenario 4 has three variants: the amnesia guard (4a), AOF {@code appendfsync always}
 * (4b), and a restart delayed past the TTL (4c). Seeds are 0 (a fresh seed per run, printed) unless
 * {@code -Dchaos.seed} is given.
 */
public final class Scenarios {
    private static final Duration ZERO = Duration.ZERO;
    /** Kills and restarts a node, and partitions client 0 alone (its own proxies). */
    private static final Needs KILL_RESTART = Needs.NOTHING.withProcessControl().withOwnProxies();
    /** Faults on some clients' paths only. */
    private static final Needs OWN_PROXIES = Needs.NOTHING.withOwnProxies();
    /** SIGSTOPs a node. */
    private static final Needs PAUSE = Needs.NOTHING.withProcessControl();
    /** Why the amnesia scenarios without the guard keep restartQuarantine 0 in a tuned run. */
    private static final String GUARD_OFF = "its claim is about a restart with the amnesia guard off";
    /** Why the amnesia scenarios with the guard keep their quarantine (2 x TTL) in a tuned run. */
    static final String RESTART_ROUNDS = "each round restarts a node and acquires on it again within the round's "
            + "set-up time (3 s), so the quarantine stays 2 x its TTL";

    private Scenarios() {}

    private static Duration ms(long m) {
        return Duration.ofMillis(m);
    }

    private static final List<Scenario> ALL;
    private static final List<Scenario> CORE = List.of(
            new Scenario("1", "contention", "no fault, 5 clients contending for one lock", Expectation.SAFE,
                    Settings.defaults().withTtl(ms(400)).withClients(5).withDuration(ms(3000)),
                    Scripts::contention),
            new Scenario("2", "nodes cut", "2 nodes cut (proxy disabled + reset_peer), then a 3rd black-holed",
                    Expectation.SAFE,
                    Settings.defaults().withTtl(ms(500)).withClients(3).withDuration(ms(1200)),
                    Scripts::cutNodes, Needs.NOTHING.withSpareNodes(2)),
            new Scenario("3", "amnesia", "node of the holder's majority killed -9 and restarted at once, no "
                    + "persistence, amnesia guard off; second client gets that node + the other two",
                    Expectation.VIOLATION,
                    Settings.defaults().withTtl(ms(1000)).withRestartQuarantine(ZERO).withOwnProxies(Set.of(0)),
                    ctx -> Scripts.amnesia(ctx, Scripts.Restart.IMMEDIATE, true),
                    KILL_RESTART.withFixed(GUARD_OFF, Knob.RESTART_QUARANTINE)),
            new Scenario("4a", "amnesia, guard on", "as 3, with restartQuarantine = 2 x TTL and nodes marked fresh at "
                    + "start", Expectation.SAFE,
                    Settings.defaults().withTtl(ms(600)).withOwnProxies(Set.of(0)),
                    ctx -> Scripts.amnesia(ctx, Scripts.Restart.IMMEDIATE, false),
                    KILL_RESTART.withFixed(RESTART_ROUNDS, Knob.TTL, Knob.RESTART_QUARANTINE)),
            new Scenario("4b", "amnesia, AOF always", "as 3 (guard off), nodes with AOF appendfsync always",
                    Expectation.SAFE,
                    Settings.defaults().withTtl(ms(600)).withRestartQuarantine(ZERO).withAof(true).withOwnProxies(Set.of(0)),
                    ctx -> Scripts.amnesia(ctx, Scripts.Restart.IMMEDIATE, false),
                    KILL_RESTART.withFixed(GUARD_OFF, Knob.RESTART_QUARANTINE)),
            new Scenario("4c", "amnesia, delayed restart", "as 3 (guard off, no persistence), restart delayed until the "
                    + "TTL has passed", Expectation.SAFE,
                    Settings.defaults().withTtl(ms(600)).withRestartQuarantine(ZERO).withOwnProxies(Set.of(0)),
                    ctx -> Scripts.amnesia(ctx, Scripts.Restart.DELAYED, false),
                    KILL_RESTART.withFixed(GUARD_OFF, Knob.RESTART_QUARANTINE)),
            new Scenario("5", "clock jump", "clock of a node in the holder's majority jumps past the lock's remaining "
                    + "TTL; second client gets that node + the other two", Expectation.VIOLATION,
                    Settings.defaults().withTtl(ms(800)).withClockNode(2).withOwnProxies(Set.of(0)),
                    Scripts::clockJump, OWN_PROXIES),
            new Scenario("6", "fast clock within drift", "a node's clock runs 3% fast, drift allowance 5%",
                    Expectation.SAFE,
                    Settings.defaults().withTtl(ms(500)).withDrift(0.05).withClockNode(2).withOwnProxies(Set.of(0)),
                    ctx -> Scripts.fastClock(ctx, 0.03),
                    OWN_PROXIES.withFixed("its claim is a 3 % fast clock within a 5 % drift allowance", Knob.DRIFT_FACTOR)),
            new Scenario("7", "client stall", "holder pauses (GC) after its validity check, longer than its validity",
                    Expectation.VIOLATION,
                    Settings.defaults().withTtl(ms(300)),
                    Scripts::clientStall),
            new Scenario("8", "stall with replies in flight", "holder's acquire replies held in flight longer than the "
                    + "TTL (downstream latency on its own proxies, below nodeTimeout)", Expectation.SAFE,
                    Settings.defaults().withTtl(ms(300)).withNodeTimeout(ms(1000)).withOwnProxies(Set.of(0)),
                    Scripts::repliesInFlight, OWN_PROXIES.withFixed("its replies are held TTL + 150 ms, which must stay "
                            + "below the node timeout", Knob.TTL, Knob.NODE_TIMEOUT)),
            new Scenario("9", "delayed write", "holder's write held on the resource path past its validity",
                    Expectation.VIOLATION,
                    Settings.defaults().withTtl(ms(300)),
                    Scripts::delayedWrite),
            new Scenario("10", "latency near TTL", "latency to every node, round trip 1.1 x TTL, nodeTimeout above it",
                    Expectation.SAFE,
                    Settings.defaults().withTtl(ms(300)).withClients(3).withNodeTimeout(ms(1000))
                            .withDuration(ms(1500)),
                    Scripts::latencyNearTtl, Needs.NOTHING.withFixed("its round trip is 1.1 x TTL, which must stay below "
                            + "the node timeout", Knob.TTL, Knob.NODE_TIMEOUT)),
            new Scenario("11", "extension minority", "holder partitioned from 3 of 5 nodes, its extension reaches "
                    + "fewer than a quorum", Expectation.SAFE,
                    Settings.defaults().withTtl(ms(500)).withOwnProxies(Set.of(0)),
                    Scripts::extensionMinority, OWN_PROXIES),
            new Scenario("12", "stale release", "stale holder releases after another client acquired",
                    Expectation.SAFE,
                    Settings.defaults().withTtl(ms(500)).withClients(3),
                    Scripts::staleRelease),
            new Scenario("13", "paused node", "one node, then another, SIGSTOPped for 2 x TTL under a workload",
                    Expectation.SAFE,
                    Settings.defaults().withTtl(ms(300)).withClients(3).withDuration(ms(3000)),
                    Scripts::pausedNode, PAUSE),
            new Scenario("14", "split vote", "5 clients ask at once, each heard first by a different node",
                    Expectation.SAFE,
                    Settings.defaults().withTtl(ms(1000)).withClients(5).withNodeTimeout(ms(700))
                            .withOwnProxies(Set.of(0, 1, 2, 3, 4)),
                    ctx -> Scripts.splitVote(ctx, ms(40), ms(200)), OWN_PROXIES.withFixed("5 clients each heard first "
                            + "by a different one of 5 nodes, replies delayed 200 ms below the node timeout, within the TTL",
                            Knob.QUORUM, Knob.TTL, Knob.NODE_TIMEOUT)));

    static {
        List<Scenario> all = new ArrayList<>(CORE);
        all.addAll(DeploymentScripts.scenarios());
        all.addAll(WatchdogScripts.SCENARIOS);
        all.addAll(LateGrantScripts.SCENARIOS);
        ALL = List.copyOf(all);
    }

    /** Every scenario, in order: the core catalogue, then the families kept beside their bodies (deployments d1a..d7, watchdog W1..W3, late grants L1). */
    public static List<Scenario> all() {
        return ALL;
    }

    /**
     * The soak (not in {@link #all()}): the contention workload under a seeded random mix of faults for
     * {@code duration}; see {@code SoakScripts}.
     */
    public static Scenario soak(Duration duration) {
        return SoakScripts.soak(duration);
    }

    /**
     * A scenario by id ("1".."14", "4a", "4b", "4c", "d1a".."d7", "W1".."W3", "L1"; "4" is "4a").
     *
     * @throws NoSuchElementException for an unknown id
     */
    public static Scenario byId(String id) {
        String want = id.equals("4") ? "4a" : id;
        return ALL.stream().filter(s -> s.id().equals(want)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no scenario " + id + "; known: "
                        + ALL.stream().map(Scenario::id).toList()));
    }
}
