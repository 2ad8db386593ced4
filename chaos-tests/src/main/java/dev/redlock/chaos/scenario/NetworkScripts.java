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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

/**
 * Scenarios that fault the network through the proxies: nodes cut, reset or black-holed (2), a write held on the
 * resource path (9), latency near the TTL (10), a holder partitioned from a majority while extending (11), and
 * staggered latencies that split the vote (14). Definitions next to their bodies; each body forces its interleaving
 * explicitly (shared steps in {@link ScriptSteps}).
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class NetworkScripts {
    /** Faults on some clients' paths only. */
    private static final Needs OWN_PROXIES = Needs.NOTHING.withOwnProxies();

    private NetworkScripts() {}

    /** The scenarios of this family, in catalogue order. */
    static List<Scenario> all() {
        return List.of(
                new Scenario("2", "nodes cut", "2 nodes cut (proxy disabled + reset_peer), then a 3rd black-holed",
                        Expectation.SAFE,
                        Settings.builder().ttl(ms(500)).clients(3).duration(ms(1200)).build(),
                        NetworkScripts::cutNodes, Needs.NOTHING.withSpareNodes(2)),
                new Scenario("9", "delayed write", "holder's write held on the resource path past its validity",
                        Expectation.VIOLATION,
                        Settings.builder().ttl(ms(300)).build(),
                        NetworkScripts::delayedWrite),
                new Scenario("10", "latency near TTL", "latency to every node, round trip 1.1 x TTL, nodeTimeout above it",
                        Expectation.SAFE,
                        Settings.builder().ttl(ms(300)).clients(3).nodeTimeout(ms(1000)).duration(ms(1500)).build(),
                        NetworkScripts::latencyNearTtl, Needs.NOTHING.withFixed("its round trip is 1.1 x TTL, which must stay below "
                                + "the node timeout", Knob.TTL, Knob.NODE_TIMEOUT)),
                new Scenario("11", "extension minority", "holder partitioned from 3 of 5 nodes, its extension reaches "
                        + "fewer than a quorum", Expectation.SAFE,
                        Settings.builder().ttl(ms(500)).ownProxies(Set.of(0)).build(),
                        NetworkScripts::extensionMinority, OWN_PROXIES),
                new Scenario("14", "split vote", "5 clients ask at once, each heard first by a different node",
                        Expectation.SAFE,
                        Settings.builder().ttl(ms(1000)).clients(5).nodeTimeout(ms(700))
                                .ownProxies(Set.of(0, 1, 2, 3, 4)).build(),
                        ctx -> splitVote(ctx, ms(40), ms(200)), OWN_PROXIES.withFixed("5 clients each heard first "
                                + "by a different one of 5 nodes, replies delayed 200 ms below the node timeout, within the TTL",
                                Knob.QUORUM, Knob.TTL, Knob.NODE_TIMEOUT)));
    }

    // ---- 2 ----

    /**
     * Two nodes cut (one proxy disabled, one resetting every connection), then a third one black-holed, then healed,
     * under a continuous workload.
     */
    static void cutNodes(ScenarioContext ctx) {
        Nemesis nem = ctx.nemesis();
        int[] order = ScriptSteps.shuffled(ctx.random(), ctx.settings().nodes());
        Duration phase = ctx.settings().duration();
        Duration total = Duration.ofMillis(400).plus(phase).plus(phase).plus(Duration.ofMillis(1500));
        CompletableFuture<Void> load = ctx.async("workload", () -> {
            ctx.runWorkload(total);
            return null;
        });
        Sleep.of(Duration.ofMillis(400));
        long twoStart, threeStart, threeEnd;
        try (FaultHandle cut = nem.cut(order[0]); FaultHandle reset = nem.resetPeer(ProxySet.MAIN, order[1])) {
            twoStart = History.now();
            Sleep.of(phase);
            try (FaultHandle hole = nem.blackhole(ProxySet.MAIN, order[2])) {
                threeStart = History.now();
                Sleep.of(phase);
                threeEnd = History.now();
            }
        }
        long healed = History.now();
        ScenarioContext.join(load, total.plus(Duration.ofSeconds(20)));
        long margin = ctx.settings().nodeTimeout().toNanos() + Duration.ofMillis(50).toNanos();
        long okTwo = ctx.acquiresOkInvokedBetween(twoStart + margin, threeStart);
        // rounds decided inside the window: invoked after the fault bit, decided (nodeTimeout at most) before healing
        long okThree = ctx.acquiresOkInvokedBetween(threeStart + margin, threeEnd - margin);
        long triedThree = ctx.acquiresInvokedBetween(threeStart + margin, threeEnd - margin);
        long okAfter = ctx.acquiresOkInvokedBetween(healed, History.now());
        ctx.check("stays available with 2 of 5 nodes cut", okTwo >= 1, okTwo + " acquires succeeded");
        ctx.check("unavailable with 3 of 5 nodes cut", okThree == 0 && triedThree >= 1,
                okThree + " of " + triedThree + " acquires succeeded");
        ctx.check("available again after healing", okAfter >= 1, okAfter + " acquires succeeded");
    }

    // ---- 9 ----

    /**
     * A acquires, reads, checks validity and issues its write at once; the write is held in transit (latency on the
     * resource path) past A's validity and until B has acquired and written, then lands.
     */
    static void delayedWrite(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Held ha = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            Reads ra = a.read();
            CountDownLatch bWrote = new CountDownLatch(1);
            CompletableFuture<Optional<Held>> fb = ScriptSteps.secondHolder(ctx, b, rnd, bWrote, null);
            try (FaultHandle slow = ctx.nemesis().resourceLatency(a.id(),
                    Duration.ofNanos(ha.validityNanos()).plusMillis(50), () -> bWrote.getCount() == 0,
                    Duration.ofSeconds(5))) {
                if (!ha.lease().isValid()) throw new IllegalStateException("A's lease expired before its write");
                a.write(ha, ra);
            }
            a.release(ha);
            Optional<Held> hb = ScenarioContext.join(fb, Duration.ofSeconds(10));
            ctx.check("round " + round + ": B acquired while A's write was in flight", hb.isPresent(), "");
        }
    }

    // ---- 10 ----

    /** Latency to every node with a round trip just over the TTL (nodeTimeout above it), under a workload. */
    static void latencyNearTtl(ScenarioContext ctx) {
        Nemesis nem = ctx.nemesis();
        int[] all = IntStream.range(0, ctx.settings().nodes()).toArray();
        Duration oneWay = Duration.ofMillis(ctx.ttl().toMillis() * 55 / 100);
        Duration phase = ctx.settings().duration();
        Duration total = Duration.ofMillis(600).plus(phase).plus(Duration.ofMillis(800));
        long baselineStart = History.now();
        CompletableFuture<Void> load = ctx.async("workload", () -> {
            ctx.runWorkload(total);
            return null;
        });
        Sleep.of(Duration.ofMillis(600));
        long start, end;
        try (FaultHandle up = nem.latency(ProxySet.MAIN, ToxicDirection.UPSTREAM, oneWay, Duration.ZERO, all);
             FaultHandle down = nem.latency(ProxySet.MAIN, ToxicDirection.DOWNSTREAM, oneWay, Duration.ZERO, all)) {
            start = History.now();
            Sleep.of(phase);
            end = History.now();
        }
        ScenarioContext.join(load, total.plus(Duration.ofSeconds(20)));
        long okBefore = ctx.acquiresOkInvokedBetween(baselineStart, start);
        // rounds that ran entirely under the latency: invoked after it was in place, answered before it was removed
        long from = start + Duration.ofMillis(20).toNanos();
        long to = end - oneWay.multipliedBy(2).plusMillis(50).toNanos();
        long ok = ctx.acquiresOkInvokedBetween(from, to);
        long tried = ctx.acquiresInvokedBetween(from, to);
        ctx.check("acquires succeed without the latency", okBefore >= 1, okBefore + " succeeded");
        ctx.check("acquires fail while the round trip exceeds the TTL", ok == 0 && tried >= 2,
                ok + " of " + tried + " succeeded");
    }

    // ---- 11 ----

    /**
     * A holds and extends once; then A is partitioned from three nodes (its own proxies), so its next extension
     * reaches fewer than a quorum: the lease must be reported lost, A must not write, and B gets the lock once A's
     * keys expire.
     */
    static void extensionMinority(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Held ha = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            a.write(ha, a.read());
            boolean first = a.extend(ha, ctx.ttl());
            ctx.check("round " + round + ": extension with every node reachable succeeds", first, "");
            int[] cut = ScriptSteps.pickOthers(rnd, ctx.settings().nodes(), -1, ctx.settings().quorum());
            Optional<Held> hb;
            try (FaultHandle part = ctx.nemesis().cut(ProxySet.ofClient(a.id()), cut)) {
                boolean second = a.extend(ha, ctx.ttl());
                ctx.check("round " + round + ": extension reaching fewer than a quorum reports the lease lost",
                        !second && !ha.lease().isValid(), "");
                if (ha.lease().isValid()) a.write(ha, a.read());
                hb = b.acquire(ctx.ttl(), History.now() + ctx.ttl().multipliedBy(4).toNanos(),
                        new Random(rnd.nextLong()), Duration.ofMillis(5), Duration.ofMillis(3));
                hb.ifPresent(h -> b.write(h, b.read()));
            }
            a.release(ha);
            hb.ifPresent(b::release);
            ctx.check("round " + round + ": B acquired once A's keys expired", hb.isPresent(), "");
        }
    }

    // ---- 14 ----

    /**
     * K clients ask at the same instant; each client's own proxies delay its request to node j by
     * {@code ((j - i) mod K) * stagger}, so node i hears client i first, and delay every reply by {@code replyDelay}
     * (more than twice the stagger), so every request has reached its node before any client decides and releases:
     * every client gets exactly one vote, nobody a quorum. Then they retry with seeded jitter until each got the
     * lock once. Measures rounds and time to acquire.
     */
    static void splitVote(ScenarioContext ctx, Duration stagger, Duration replyDelay) {
        int k = ctx.settings().clients();
        int n = ctx.settings().nodes();
        int[] all = IntStream.range(0, n).toArray();
        int splits = 0;
        List<Integer> rounds = new CopyOnWriteArrayList<>();
        List<Long> times = new CopyOnWriteArrayList<>();
        for (int r = 0; r < ctx.settings().rounds(); r++) {
            List<FaultHandle> handles = new ArrayList<>();
            long t0;
            List<Optional<Held>> firstResults = new ArrayList<>();
            try {
                for (int i = 0; i < k; i++) {
                    long[] lat = new long[n];
                    for (int j = 0; j < n; j++) lat[j] = Math.floorMod(j - i, k) * stagger.toMillis();
                    handles.add(ctx.nemesis().staggeredLatency(ProxySet.ofClient(i), ToxicDirection.UPSTREAM, lat));
                    handles.add(ctx.nemesis().latency(ProxySet.ofClient(i), ToxicDirection.DOWNSTREAM, replyDelay, Duration.ZERO, all));
                }
                // the first round of every client is started from this one thread, within a millisecond
                t0 = History.now();
                List<CompletableFuture<Optional<Held>>> firsts = new ArrayList<>();
                for (int i = 0; i < k; i++) firsts.add(ctx.client(i).tryAcquireAsync(ctx.ttl()));
                for (CompletableFuture<Optional<Held>> f : firsts) firstResults.add(ScenarioContext.join(f, Duration.ofSeconds(20)));
            } finally {
                // the split is forced once; the retries that resolve it run on a healthy network
                for (FaultHandle h : handles) h.close();
            }
            if (firstResults.stream().noneMatch(Optional::isPresent)) splits++;
            List<CompletableFuture<Boolean>> done = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                WorkloadClient c = ctx.client(i);
                Random rnd = new Random(ctx.random().nextLong());
                Optional<Held> first = firstResults.get(i);
                long start = t0;
                done.add(ctx.async("c" + i, () -> {
                    Optional<Held> h = first;
                    int tries = 1;
                    long until = start + Duration.ofSeconds(15).toNanos();
                    while (h.isEmpty() && History.now() < until) {
                        Sleep.of(Duration.ofMillis(20 + rnd.nextInt(80)));
                        h = c.tryAcquire(ctx.ttl());
                        tries++;
                    }
                    if (h.isEmpty()) return false;
                    rounds.add(tries);
                    times.add((History.now() - start) / 1_000_000);
                    if (h.get().lease().isValid()) c.write(h.get(), c.read());
                    c.release(h.get());
                    return true;
                }));
            }
            long acquired = 0;
            for (CompletableFuture<Boolean> f : done) if (ScenarioContext.join(f, Duration.ofSeconds(30))) acquired++;
            ctx.check("round " + r + ": every client eventually acquired", acquired == k, acquired + " of " + k);
        }
        ctx.check("the simultaneous first round split the vote (at least once)", splits >= 1,
                splits + " of " + ctx.settings().rounds() + " first rounds split");
        ctx.history().note("rounds per acquire " + rounds + ", ms to acquire " + times);
        ctx.check("time to acquire measured", !times.isEmpty(), String.format("rounds mean %.1f max %d; ms mean %.0f max %d",
                rounds.stream().mapToInt(Integer::intValue).average().orElse(0),
                rounds.stream().mapToInt(Integer::intValue).max().orElse(0),
                times.stream().mapToLong(Long::longValue).average().orElse(0),
                times.stream().mapToLong(Long::longValue).max().orElse(0)));
    }
}
