package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.ms;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.nemesis.Nemesis;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.Reads;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Scenarios that fault a node's clock (libfaketime, or its simulation): a jump past the lock's remaining TTL (5),
 * and a clock running fast within the drift allowance (6). Definitions next to their bodies; each body forces its
 * interleaving explicitly (shared steps in {@link ScriptSteps}).
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class ClockScripts {
    /** Faults on some clients' paths only. */
    private static final Needs OWN_PROXIES = Needs.NOTHING.withOwnProxies();

    private ClockScripts() {}

    /** The scenarios of this family, in catalogue order. */
    static List<Scenario> all() {
        return List.of(
                new Scenario("5", "clock jump", "clock of a node in the holder's majority jumps past the lock's remaining "
                        + "TTL; second client gets that node + the other two", Expectation.VIOLATION,
                        Settings.builder().ttl(ms(800)).clockNode(2).ownProxies(Set.of(0)).build(),
                        ClockScripts::clockJump, OWN_PROXIES),
                new Scenario("6", "fast clock within drift", "a node's clock runs 3% fast, drift allowance 5%",
                        Expectation.SAFE,
                        Settings.builder().ttl(ms(500)).driftFactor(0.05).clockNode(2).ownProxies(Set.of(0)).build(),
                        ctx -> fastClock(ctx, 0.03),
                        OWN_PROXIES.withFixed("its claim is a 3 % fast clock within a 5 % drift allowance", Knob.DRIFT_FACTOR)));
    }

    // ---- 5 ----

    /**
     * A holds on a majority M; the clock of a node v of M jumps forward past the lock's remaining TTL, so A's key on
     * v expires early; B wins on v + the two others while A still believes it holds (Kleppmann).
     */
    static void clockJump(ScenarioContext ctx) {
        Nemesis nem = ctx.nemesis();
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        int v = ctx.settings().clockNode();
        for (int r = 0; r < ctx.settings().rounds(); r++) {
            int round = r;
            ScriptSteps.round(ctx, round, () -> {
                int[] others = ScriptSteps.pickOthers(rnd, ctx.settings().nodes(), v,
                        ctx.settings().nodes() - ctx.settings().quorum());
                Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
                Reads ra = a.read();
                long until = ScriptSteps.whileAHolds(a, ha, b);
                Optional<Held> hb;
                try (FaultHandle jump = nem.clockJump(v, ctx.ttl().plusMillis(100))) {
                    hb = b.acquire(ctx.ttl(), until, new Random(rnd.nextLong()), Duration.ofMillis(5), Duration.ofMillis(3));
                }
                ctx.check("round " + round + ": B acquired while A held", hb.isPresent(), "");
                if (hb.isPresent()) b.write(hb.get(), b.read());
                if (ha.lease().isValid()) a.write(ha, ra);
                else a.noteLost(ha, "validity ran out before the write");
                a.release(ha);
                hb.ifPresent(b::release);
            });
            Sleep.of(Duration.ofMillis(50));
        }
    }

    // ---- 6 ----

    /**
     * Node v's clock runs fast, within the drift allowance. A holds on a majority containing v and writes; B hammers
     * the lock from then on and can win only when v's key expires early: that is still after A's validity ended.
     */
    static void fastClock(ScenarioContext ctx, double rate) {
        Nemesis nem = ctx.nemesis();
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        int v = ctx.settings().clockNode();
        try (FaultHandle fast = nem.fastClock(v, rate)) {
            for (int round = 0; round < ctx.settings().rounds(); round++) {
                int[] others = ScriptSteps.pickOthers(rnd, ctx.settings().nodes(), v, ctx.settings().nodes() - ctx.settings().quorum());
                Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
                if (ha.lease().isValid()) a.write(ha, a.read());
                Optional<Held> hb = b.acquire(ctx.ttl(), History.now() + ctx.ttl().multipliedBy(4).toNanos(),
                        new Random(rnd.nextLong()), Duration.ofMillis(2), Duration.ofMillis(1));
                ctx.check("round " + round + ": B acquired once v's key expired", hb.isPresent(), "");
                if (hb.isPresent()) {
                    long afterDeadline = hb.get().acquiredNanos() - ha.deadlineNanos();
                    ctx.history().note(String.format("round %d: B acquired %.1f ms after A's validity ended", round,
                            afterDeadline / 1e6));
                    b.write(hb.get(), b.read());
                }
                a.release(ha);
                hb.ifPresent(b::release);
                Sleep.of(Duration.ofMillis(50));
            }
        }
    }
}
