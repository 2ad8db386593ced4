package dev.redlock.chaos.scenario;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.nemesis.Nemesis;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.Reads;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.Sleep;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * The bodies of the scenarios. Each forces its interesting interleaving explicitly (who holds what, when the fault
 * hits, who writes first) instead of hoping a random workload runs into it; seeded choices pick the nodes.
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class Scripts {
    private static final Duration SETUP = Duration.ofSeconds(3);

    private Scripts() {}

    // ---- 1 ----

    /** Heavy contention, no fault. */
    static void contention(ScenarioContext ctx) {
        ctx.runWorkload(ctx.settings().duration());
        long writes = ctx.history().writes(Write.Store.UNFENCED).size();
        ctx.check("the workload ran", writes >= 10, writes + " read-modify-write operations");
    }

    // ---- 2 ----

    /**
     * Two nodes cut (one proxy disabled, one resetting every connection), then a third one black-holed, then healed,
     * under a continuous workload.
     */
    static void cutNodes(ScenarioContext ctx) {
        Nemesis nem = ctx.nemesis();
        int[] order = shuffled(ctx.random(), ctx.settings().nodes());
        Duration phase = ctx.settings().duration();
        Duration total = Duration.ofMillis(400).plus(phase).plus(phase).plus(Duration.ofMillis(1500));
        CompletableFuture<Void> load = ctx.async("workload", () -> {
            ctx.runWorkload(total);
            return null;
        });
        Sleep.of(Duration.ofMillis(400));
        long twoStart, threeStart, threeEnd;
        try (FaultHandle cut = nem.cut(order[0]); FaultHandle reset = nem.resetPeer(ChaosCluster.MAIN, order[1])) {
            twoStart = History.now();
            Sleep.of(phase);
            try (FaultHandle hole = nem.blackhole(ChaosCluster.MAIN, order[2])) {
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

    // ---- 3, 4a, 4b, 4c ----

    enum Restart { IMMEDIATE, DELAYED }

    /**
     * A holds the lock on exactly a majority M (the two other nodes O are cut while it acquires). A node v of M is
     * killed -9 and restarted; B then asks for the lock while A still believes it holds it. Without persistence and
     * without the amnesia guard, v has forgotten A's key and B wins on v + O: two holders. B reads, writes; then A
     * does the write it had prepared (read before B's write).
     */
    static void amnesia(ScenarioContext ctx, Restart restart, boolean expectSecondHolder) {
        Nemesis nem = ctx.nemesis();
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        Duration ttl = ctx.ttl();
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            int v = rnd.nextInt(ctx.settings().nodes());
            int[] others = pickOthers(rnd, ctx.settings().nodes(), v, ctx.settings().nodes() - ctx.settings().quorum());
            Held ha = acquireOnMajority(ctx, a, others);
            ctx.history().note("round " + round + ": A holds on " + ctx.lockValues() + "; victim node " + v
                    + ", others " + Arrays.toString(others));
            Reads ra = a.read();
            FaultHandle down = null;
            if (restart == Restart.IMMEDIATE) {
                nem.killAndRestart(v);
                ctx.cluster().awaitReachable(ChaosCluster.MAIN, v, SETUP);
            } else {
                down = nem.kill(v);
            }
            try {
                // B asks while A still believes it holds the lock, leaving A time to write within its validity
                long until = ha.deadlineNanos() - Duration.ofMillis(150).toNanos();
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
                    ctx.cluster().awaitReachable(ChaosCluster.MAIN, v, SETUP);
                }
                if (hb.isEmpty()) {
                    Duration patience = ttl.multipliedBy(3).plus(ctx.settings().restartQuarantine());
                    Held later = must(ctx.acquireWithin(b, patience), "B could not acquire after A released");
                    b.write(later, b.read());
                    b.release(later);
                }
            } finally {
                if (down != null) down.close();
            }
            Sleep.of(Duration.ofMillis(50));
        }
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
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            int[] others = pickOthers(rnd, ctx.settings().nodes(), v, ctx.settings().nodes() - ctx.settings().quorum());
            Held ha = acquireOnMajority(ctx, a, others);
            Reads ra = a.read();
            Optional<Held> hb;
            try (FaultHandle jump = nem.clockJump(v, ctx.ttl().plusMillis(100))) {
                long until = ha.deadlineNanos() - Duration.ofMillis(150).toNanos();
                hb = b.acquire(ctx.ttl(), until, new Random(rnd.nextLong()), Duration.ofMillis(5), Duration.ofMillis(3));
            }
            ctx.check("round " + round + ": B acquired while A held", hb.isPresent(), "");
            if (hb.isPresent()) b.write(hb.get(), b.read());
            if (ha.lease().isValid()) a.write(ha, ra);
            else a.noteLost(ha, "validity ran out before the write");
            a.release(ha);
            hb.ifPresent(b::release);
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
                int[] others = pickOthers(rnd, ctx.settings().nodes(), v, ctx.settings().nodes() - ctx.settings().quorum());
                Held ha = acquireOnMajority(ctx, a, others);
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

    // ---- 7 ----

    /**
     * A acquires, reads, checks its validity, then pauses (GC) past its validity and until B has acquired and
     * written; A then writes what it computed before the pause.
     */
    static void clientStall(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Held ha = must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            Reads ra = a.read();
            if (!ha.lease().isValid()) throw new IllegalStateException("A's lease expired before the pause");
            CountDownLatch bWrote = new CountDownLatch(1);
            CompletableFuture<Optional<Held>> fb = secondHolder(ctx, b, rnd, bWrote, null);
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
            try (FaultHandle slow = ctx.nemesis().latency("c" + a.id(), ToxicDirection.DOWNSTREAM,
                    ctx.ttl().plusMillis(150), Duration.ZERO, all)) {
                invoked = History.now();
                CompletableFuture<Optional<Held>> fa = ctx.async("A", () -> a.tryAcquire(ctx.ttl()));
                boolean keysSet = ScenarioContext.await(() -> ctx.lockValues().stream().filter(s -> !s.isEmpty()).count()
                        >= ctx.settings().quorum(), SETUP);
                if (!keysSet) throw new IllegalStateException("A's keys never reached the nodes");
                CompletableFuture<Optional<Held>> fb = secondHolder(ctx, b, rnd, new CountDownLatch(1), null);
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

    // ---- 9 ----

    /**
     * A acquires, reads, checks validity and issues its write at once; the write is held in transit (latency on the
     * resource path) past A's validity and until B has acquired and written, then lands.
     */
    static void delayedWrite(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Held ha = must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            Reads ra = a.read();
            CountDownLatch bWrote = new CountDownLatch(1);
            CompletableFuture<Optional<Held>> fb = secondHolder(ctx, b, rnd, bWrote, null);
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
        try (FaultHandle up = nem.latency(ChaosCluster.MAIN, ToxicDirection.UPSTREAM, oneWay, Duration.ZERO, all);
             FaultHandle down = nem.latency(ChaosCluster.MAIN, ToxicDirection.DOWNSTREAM, oneWay, Duration.ZERO, all)) {
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
            Held ha = must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            a.write(ha, a.read());
            boolean first = a.extend(ha, ctx.ttl());
            ctx.check("round " + round + ": extension with every node reachable succeeds", first, "");
            int[] cut = pickOthers(rnd, ctx.settings().nodes(), -1, ctx.settings().quorum());
            Optional<Held> hb;
            try (FaultHandle part = ctx.nemesis().cut("c" + a.id(), cut)) {
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

    // ---- 12 ----

    /**
     * A acquires and pauses past its TTL; B acquires and writes; A wakes and releases (its stale release). B's keys
     * must survive (the release is token-checked), so C is still refused.
     */
    static void staleRelease(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1), c = ctx.client(2);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Held ha = must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            CountDownLatch bWrote = new CountDownLatch(1);
            CountDownLatch mayRelease = new CountDownLatch(1);
            AtomicReference<Held> bHeld = new AtomicReference<>();
            CompletableFuture<Optional<Held>> fb = secondHolder(ctx, b, rnd, bWrote, mayRelease, bHeld);
            ctx.nemesis().stallClient(a.id(), ctx.ttl().plusMillis(20), () -> bWrote.getCount() == 0,
                    Duration.ofSeconds(5));
            List<String> before = ctx.lockValues();
            if (!ha.lease().isValid()) a.noteLost(ha, "validity ran out during the pause; releasing anyway");
            a.release(ha);
            List<String> after = ctx.lockValues();
            long held = before.stream().filter(s -> !s.isEmpty()).count();
            long survived = IntStream.range(0, before.size())
                    .filter(i -> !before.get(i).isEmpty() && before.get(i).equals(after.get(i))).count();
            ctx.check("round " + round + ": B's keys survive A's stale release",
                    held >= ctx.settings().quorum() && survived == held,
                    survived + " of " + held + " keys survived; before " + before + " after " + after);
            Optional<Held> hc = c.tryAcquire(ctx.ttl());
            Held hb = bHeld.get();
            // on a very slow machine B's lease may have run out before C asked: then C may legitimately win
            boolean bStillValid = hb != null && hc.map(h -> h.acquiredNanos() < hb.deadlineNanos()).orElse(true)
                    && hb.lease().isValid();
            ctx.check("round " + round + ": C is refused while B holds", hc.isEmpty() || !bStillValid,
                    hc.isEmpty() ? "" : "C acquired after B's validity ended (slow machine), not a violation");
            hc.ifPresent(c::release);
            mayRelease.countDown();
            ScenarioContext.join(fb, Duration.ofSeconds(10));
        }
    }

    // ---- 13 ----

    /** Workload while one node, then another, is SIGSTOPped for twice the TTL. */
    static void pausedNode(ScenarioContext ctx) {
        Nemesis nem = ctx.nemesis();
        int[] order = shuffled(ctx.random(), ctx.settings().nodes());
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
                    handles.add(ctx.nemesis().staggeredLatency("c" + i, ToxicDirection.UPSTREAM, lat, i));
                    handles.add(ctx.nemesis().latency("c" + i, ToxicDirection.DOWNSTREAM, replyDelay, Duration.ZERO, all));
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

    // ---- helpers ----

    /**
     * A acquires while partitioned from {@code others} (a black hole on A's own proxies to them: its requests there
     * are dropped, never delivered late), so it holds on exactly the other nodes; then the partition heals.
     *
     * @throws IllegalStateException when A's key did not end up on exactly the majority
     */
    static Held acquireOnMajority(ScenarioContext ctx, WorkloadClient a, int[] others) {
        String set = "c" + a.id();
        List<String> values = List.of();
        for (int attempt = 0; attempt < 4; attempt++) {
            Held ha;
            try (FaultHandle hole = ctx.nemesis().blackhole(set, others)) {
                ha = must(ctx.acquireWithin(a, SETUP), "A could not acquire on the majority");
            }
            for (int o : others) ctx.cluster().awaitReachable(set, o, SETUP);
            values = ctx.lockValues();
            if (onExactly(values, others)) return ha;
            // a request slipped through before the black hole took effect on a busy proxy: give it back, retry
            ctx.history().note("A's key landed on " + values + ", not only outside " + Arrays.toString(others)
                    + "; releasing and retrying");
            a.release(ha);
            ScenarioContext.await(() -> ctx.lockValues().stream().allMatch(String::isEmpty), ctx.ttl().plusMillis(200));
        }
        throw new IllegalStateException("scenario set-up failed: A's key should be on every node but "
                + Arrays.toString(others) + ", found " + values);
    }

    private static boolean onExactly(List<String> values, int[] others) {
        String owner = null;
        for (int i = 0; i < values.size(); i++) {
            int node = i;
            boolean other = Arrays.stream(others).anyMatch(o -> o == node);
            String val = values.get(i);
            if (other ? !val.isEmpty() : val.isEmpty() || (owner != null && !owner.equals(val))) return false;
            if (!other) owner = val;
        }
        return true;
    }

    /**
     * B hammers the lock (4 x TTL at most); once it holds: reads, writes, counts {@code wrote} down, waits for
     * {@code mayRelease} (if any), releases.
     */
    private static CompletableFuture<Optional<Held>> secondHolder(ScenarioContext ctx, WorkloadClient b, Random rnd,
                                                                  CountDownLatch wrote, CountDownLatch mayRelease) {
        return secondHolder(ctx, b, rnd, wrote, mayRelease, new AtomicReference<>());
    }

    private static CompletableFuture<Optional<Held>> secondHolder(ScenarioContext ctx, WorkloadClient b, Random rnd,
                                                                  CountDownLatch wrote, CountDownLatch mayRelease,
                                                                  AtomicReference<Held> held) {
        Random r = new Random(rnd.nextLong());
        return ctx.async("B", () -> {
            Optional<Held> hb = b.acquire(ctx.ttl(), History.now() + ctx.ttl().multipliedBy(4).toNanos(), r,
                    Duration.ofMillis(5), Duration.ofMillis(3));
            hb.ifPresent(held::set);
            if (hb.isPresent()) {
                b.write(hb.get(), b.read());
                wrote.countDown();
                if (mayRelease != null) {
                    try {
                        mayRelease.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                b.release(hb.get());
            } else {
                wrote.countDown();
            }
            return hb;
        });
    }

    static Held must(Optional<Held> h, String what) {
        return h.orElseThrow(() -> new IllegalStateException("scenario set-up failed: " + what));
    }

    /** {@code count} distinct nodes other than {@code except}, seeded. */
    static int[] pickOthers(Random rnd, int n, int except, int count) {
        List<Integer> pool = new ArrayList<>();
        for (int i = 0; i < n; i++) if (i != except) pool.add(i);
        Collections.shuffle(pool, rnd);
        return pool.subList(0, count).stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    static int[] shuffled(Random rnd, int n) {
        List<Integer> pool = new ArrayList<>();
        for (int i = 0; i < n; i++) pool.add(i);
        Collections.shuffle(pool, rnd);
        return pool.stream().mapToInt(Integer::intValue).toArray();
    }
}
