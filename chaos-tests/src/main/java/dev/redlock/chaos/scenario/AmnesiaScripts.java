package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.SETUP;
import static dev.redlock.chaos.scenario.ScriptSteps.ms;

import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.nemesis.Nemesis;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.Reads;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Scenarios of a node that forgets: killed -9 and restarted without persistence, with the amnesia guard off (3) or
 * on (4a), with AOF {@code appendfsync always} (4b), or restarted only after the TTL (4c). Definitions next to their
 * bodies; each body forces its interleaving explicitly (shared steps in {@link ScriptSteps}).
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class AmnesiaScripts {
    private static final Duration ZERO = Duration.ZERO;
    /** Kills and restarts a node, and partitions client 0 alone (its own proxies). */
    private static final Needs KILL_RESTART = Needs.NOTHING.withProcessControl().withOwnProxies();
    /** Why the amnesia scenarios without the guard keep restartQuarantine 0 in a tuned run. */
    private static final String GUARD_OFF = "its claim is about a restart with the amnesia guard off";
    /** Why the amnesia scenarios with the guard keep their quarantine (2 x TTL) in a tuned run. */
    static final String RESTART_ROUNDS = "each round restarts a node and acquires on it again within the round's "
            + "set-up time (3 s), so the quarantine stays 2 x its TTL";

    private AmnesiaScripts() {}

    /** The scenarios of this family, in catalogue order. */
    static List<Scenario> all() {
        return List.of(
                new Scenario("3", "amnesia", "node of the holder's majority killed -9 and restarted at once, no "
                        + "persistence, amnesia guard off; second client gets that node + the other two",
                        Expectation.VIOLATION,
                        Settings.builder().ttl(ms(1000)).restartQuarantine(ZERO).ownProxies(Set.of(0)).build(),
                        ctx -> amnesia(ctx, Restart.IMMEDIATE, true),
                        KILL_RESTART.withFixed(GUARD_OFF, Knob.RESTART_QUARANTINE)),
                new Scenario("4a", "amnesia, guard on", "as 3, with restartQuarantine = 2 x TTL and nodes marked fresh at "
                        + "start", Expectation.SAFE,
                        Settings.builder().ttl(ms(600)).ownProxies(Set.of(0)).build(),
                        ctx -> amnesia(ctx, Restart.IMMEDIATE, false),
                        KILL_RESTART.withFixed(RESTART_ROUNDS, Knob.TTL, Knob.RESTART_QUARANTINE)),
                new Scenario("4b", "amnesia, AOF always", "as 3 (guard off), nodes with AOF appendfsync always",
                        Expectation.SAFE,
                        Settings.builder().ttl(ms(600)).restartQuarantine(ZERO).aof(true).ownProxies(Set.of(0)).build(),
                        ctx -> amnesia(ctx, Restart.IMMEDIATE, false),
                        KILL_RESTART.withFixed(GUARD_OFF, Knob.RESTART_QUARANTINE)),
                new Scenario("4c", "amnesia, delayed restart", "as 3 (guard off, no persistence), restart delayed until the "
                        + "TTL has passed", Expectation.SAFE,
                        Settings.builder().ttl(ms(600)).restartQuarantine(ZERO).ownProxies(Set.of(0)).build(),
                        ctx -> amnesia(ctx, Restart.DELAYED, false),
                        KILL_RESTART.withFixed(GUARD_OFF, Knob.RESTART_QUARANTINE)));
    }

    // ---- 3, 4a, 4b, 4c ----

    enum Restart { IMMEDIATE, DELAYED }

    /**
     * A holds the lock on exactly a majority M (the two other nodes O are cut while it acquires). A node v of M is
     * killed -9 and restarted; B then asks for the lock while A still believes it holds it. Without persistence and
     * without the amnesia guard, v has forgotten A's key and B wins on v + O: two holders. B reads, writes; then A
     * does the write it had prepared (read before B's write).
     */
    static void amnesia(ScenarioContext ctx, Restart restart, boolean expectSecondHolder) {
        for (int r = 0; r < ctx.settings().rounds(); r++) {
            int round = r;
            ScriptSteps.round(ctx, round, () -> amnesiaRound(ctx, round, restart, expectSecondHolder));
            Sleep.of(Duration.ofMillis(50));
        }
    }

    /** One round of {@link #amnesia}. */
    private static void amnesiaRound(ScenarioContext ctx, int round, Restart restart, boolean expectSecondHolder) {
        Nemesis nem = ctx.nemesis();
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        Duration ttl = ctx.ttl();
        int v = rnd.nextInt(ctx.settings().nodes());
        int[] others = ScriptSteps.pickOthers(rnd, ctx.settings().nodes(), v, ctx.settings().nodes() - ctx.settings().quorum());
        Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
        ctx.history().note("round " + round + ": A holds on " + ctx.lockValues() + "; victim node " + v
                + ", others " + Arrays.toString(others));
        Reads ra = a.read();
        FaultHandle down = null;
        if (restart == Restart.IMMEDIATE) {
            nem.killAndRestart(v);
            ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
        } else {
            down = nem.kill(v);
        }
        try {
            // B asks while A still believes it holds the lock, leaving A time to write within its validity
            long until = ScriptSteps.whileAHolds(a, ha, b);
            Optional<Held> hb = b.acquire(ttl, until, new Random(rnd.nextLong()), Duration.ofMillis(5),
                    Duration.ofMillis(3));
            if (hb.isPresent()) {
                ctx.history().note("round " + round + ": B holds on " + ctx.lockValues());
                b.write(hb.get(), b.read());
            }
            if (expectSecondHolder) {
                ctx.check("round " + round + ": B acquired v + the two others while A held", hb.isPresent(), "");
            } else {
                ctx.check("round " + round + ": B refused while A held", hb.isEmpty(), "");
            }
            if (ha.lease().isValid()) a.write(ha, ra);
            else a.noteLost(ha, "validity ran out before the write");
            a.release(ha);
            if (hb.isPresent()) b.release(hb.get());
            if (down != null) {
                // the delayed restart: only once every lease the node could have held has expired
                long wait = ha.acquiredNanos() + ttl.toNanos() - History.now();
                if (wait > 0) Sleep.of(Duration.ofNanos(wait).plusMillis(20));
                down.close();
                down = null;
                ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
            }
            if (hb.isEmpty()) {
                Duration patience = ttl.multipliedBy(3).plus(ctx.settings().restartQuarantine());
                Held later = ScriptSteps.must(ctx.acquireWithin(b, patience), "B could not acquire after A released");
                b.write(later, b.read());
                b.release(later);
            }
        } finally {
            if (down != null) down.close();
        }
    }
}
