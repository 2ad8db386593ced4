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
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

/**
 * Scenarios of something that stops for a while: the holder pausing (GC) past its validity (7), its acquire replies
 * held in flight past the TTL (8), and nodes SIGSTOPped under a workload (13). Definitions next to their bodies;
 * each body forces its interleaving explicitly (shared steps in {@link ScriptSteps}).
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class StallScripts {
    /** Faults on some clients' paths only. */
    private static final Needs OWN_PROXIES = Needs.NOTHING.withOwnProxies();
    /** SIGSTOPs a node. */
    private static final Needs PAUSE = Needs.NOTHING.withProcessControl();

    private StallScripts() {}

    /** The scenarios of this family, in catalogue order. */
    static List<Scenario> all() {
        return List.of(
                new Scenario("7", "client stall", "holder pauses (GC) after its validity check, longer than its validity",
                        Expectation.VIOLATION,
                        Settings.builder().ttl(ms(300)).build(),
                        StallScripts::clientStall),
                new Scenario("8", "stall with replies in flight", "holder's acquire replies held in flight longer than the "
                        + "TTL (downstream latency on its own proxies, below nodeTimeout)", Expectation.SAFE,
                        Settings.builder().ttl(ms(300)).nodeTimeout(ms(1000)).ownProxies(Set.of(0)).build(),
                        StallScripts::repliesInFlight, OWN_PROXIES.withFixed("its replies are held TTL + 150 ms, which must stay "
                                + "below the node timeout", Knob.TTL, Knob.NODE_TIMEOUT)),
                new Scenario("13", "paused node", "one node, then another, SIGSTOPped for 2 x TTL under a workload",
                        Expectation.SAFE,
                        Settings.builder().ttl(ms(300)).clients(3).duration(ms(3000)).build(),
                        StallScripts::pausedNode, PAUSE));
    }

    // ---- 7 ----

    /**
     * A acquires, reads, checks its validity, then pauses (GC) past its validity and until B has acquired and
     * written; A then writes what it computed before the pause.
     */
    static void clientStall(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Held ha = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            Reads ra = a.read();
            if (!ha.lease().isValid()) throw new IllegalStateException("A's lease expired before the pause");
            CountDownLatch bWrote = new CountDownLatch(1);
            CompletableFuture<Optional<Held>> fb = ScriptSteps.secondHolder(ctx, b, rnd, bWrote, null);
            ctx.nemesis().stallClient(a.id(), Duration.ofNanos(ha.validityNanos()).plusMillis(50),
                    () -> bWrote.getCount() == 0, Duration.ofSeconds(5));
            a.write(ha, ra); // no re-check: the pause came between the check and the write
            a.release(ha);
            Optional<Held> hb = ScenarioContext.join(fb, Duration.ofSeconds(10));
            ctx.check("round " + round + ": B acquired during A's pause", hb.isPresent(), "");
        }
    }

    // ---- 8 ----

    /**
     * A's acquire replies are held in flight (latency on the downstream of A's own proxies, longer than the TTL,
     * below nodeTimeout) so its quorum arrives after the lease would have expired; B waits for A's keys to be on
     * the nodes, then hammers. The validity check after the votes must reject A's round.
     */
    static void repliesInFlight(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        int[] all = IntStream.range(0, ctx.settings().nodes()).toArray();
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Optional<Held> ha;
            Optional<Held> hb;
            long invoked;
            try (FaultHandle slow = ctx.nemesis().latency(ProxySet.ofClient(a.id()), ToxicDirection.DOWNSTREAM,
                    ctx.ttl().plusMillis(150), Duration.ZERO, all)) {
                invoked = History.now();
                CompletableFuture<Optional<Held>> fa = ctx.async("A", () -> a.tryAcquire(ctx.ttl()));
                boolean keysSet = ScenarioContext.await(() -> ctx.lockValues().stream().filter(s -> !s.isEmpty()).count()
                        >= ctx.settings().quorum(), SETUP);
                if (!keysSet) throw new IllegalStateException("A's keys never reached the nodes");
                CompletableFuture<Optional<Held>> fb = ScriptSteps.secondHolder(ctx, b, rnd, new CountDownLatch(1), null);
                ha = ScenarioContext.join(fa, Duration.ofSeconds(10));
                if (ha.isPresent()) { // a library bug: act on it like a real client would
                    if (ha.get().lease().isValid()) a.write(ha.get(), a.read());
                    a.release(ha.get());
                }
                hb = ScenarioContext.join(fb, Duration.ofSeconds(10));
            }
            ctx.check("round " + round + ": A's late quorum rejected by the validity check", ha.isEmpty(),
                    ha.map(h -> "A got " + h.owner() + " with " + h.validityNanos() / 1_000_000 + "ms after "
                            + (h.acquiredNanos() - invoked) / 1_000_000 + "ms").orElse(""));
            ctx.check("round " + round + ": B acquired after A's keys expired", hb.isPresent(), "");
        }
    }

    // ---- 13 ----

    /** Workload while one node, then another, is SIGSTOPped for twice the TTL. */
    static void pausedNode(ScenarioContext ctx) {
        Nemesis nem = ctx.nemesis();
        int[] order = ScriptSteps.shuffled(ctx.random(), ctx.settings().nodes());
        Duration pause = ctx.ttl().multipliedBy(2);
        Duration total = ctx.settings().duration();
        CompletableFuture<Void> load = ctx.async("workload", () -> {
            ctx.runWorkload(total);
            return null;
        });
        List<long[]> windows = new ArrayList<>();
        Sleep.of(Duration.ofMillis(500));
        for (int i = 0; i < 2; i++) {
            try (FaultHandle stop = nem.pause(order[i])) {
                long s = History.now();
                Sleep.of(pause);
                windows.add(new long[] {s, History.now()});
            }
            Sleep.of(Duration.ofMillis(400));
        }
        ScenarioContext.join(load, total.plus(Duration.ofSeconds(20)));
        long ok = 0;
        for (long[] w : windows) ok += ctx.acquiresOkInvokedBetween(w[0], w[1]);
        ctx.check("stays available while a node is paused", ok >= 1, ok + " acquires succeeded during the pauses");
    }
}
