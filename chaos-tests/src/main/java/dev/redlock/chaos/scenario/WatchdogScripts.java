package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.SETUP;
import static dev.redlock.chaos.scenario.ScriptSteps.ms;

import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.Sleep;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Scenarios of the lease-extension family (the watchdog of {@code withLock} and explicit {@code extend}), with their
 * definitions: a stale holder's extension that lands on the new holder's keys (W1), nodes taken away while the
 * watchdog runs (W2), extensions and acquires under high, variable latency (W3). In each, the clients act only on
 * what the library tells them ({@code isValid()}, {@code onLost}), and the ground truth sampled from the nodes says
 * whether they were right to.
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class WatchdogScripts {
    /** How late {@code onLost} may run after the believed deadline (a loaded 2-core machine's scheduling). */
    private static final Duration LOST_NOTICE = Duration.ofMillis(250);
    private static final Needs OWN_PROXIES = Needs.NOTHING.withOwnProxies().withFixed("each fault is timed against "
            + "this TTL and the watchdog's renewals (held past the TTL, cut between renewals, latency below the node "
            + "timeout)", Knob.TTL, Knob.NODE_TIMEOUT);

    private WatchdogScripts() {}

    private static final List<Scenario> SCENARIOS = List.of(
            new Scenario("W1", "stale watchdog extension", "holder A's watchdog extension is held in transit past its "
                    + "TTL and lands after B took the lock with a longer TTL", Expectation.SAFE,
                    Settings.builder().ttl(ms(1500)).ownProxies(Set.of(0)).rounds(1).build(),
                    WatchdogScripts::staleExtension, OWN_PROXIES),
            new Scenario("W2", "watchdog loses its nodes", "3 of 5 nodes cut from holder A while its watchdog extends; "
                    + "A acts on isValid() and onLost", Expectation.SAFE,
                    Settings.builder().ttl(ms(600)).ownProxies(Set.of(0)).rounds(1).build(),
                    WatchdogScripts::watchdogLosesNodes, OWN_PROXIES),
            new Scenario("W3", "extension under latency", "100 ms ± 60 ms each way between A and every node; A acquires, "
                    + "extends, and believes what isValid() says", Expectation.SAFE,
                    Settings.builder().ttl(ms(800)).nodeTimeout(ms(600)).ownProxies(Set.of(0)).rounds(1).build(),
                    WatchdogScripts::latentExtension, OWN_PROXIES));

    /** The scenarios of this family, in order. */
    static List<Scenario> all() {
        return SCENARIOS;
    }

    // ---- W1 ----

    /**
     * A holds with the watchdog (TTL 600 ms, renewed every 200 ms) on its own proxies. Right after it acquired, A's
     * requests to every node are delayed 700 ms in transit, so its next watchdog extension reaches the nodes only after
     * its keys expired and B (main proxies, TTL 1500 ms) acquired. That extension must not touch B's keys (EXTEND is
     * token-checked); B holds for 1300 ms believing what {@code isValid()} says, and the ground truth checks its keys
     * were there all along. A must be told its lease is lost ({@code onLost}) at its deadline.
     */
    static void staleExtension(ScenarioContext ctx) {
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        Duration ttlA = ms(600);
        Random rnd = ctx.random();
        int[] all = IntStream.range(0, ctx.settings().nodes()).toArray();
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            CountDownLatch acquired = new CountDownLatch(1);
            CountDownLatch bDone = new CountDownLatch(1);
            AtomicLong lostAt = new AtomicLong();
            AtomicLong believedUntil = new AtomicLong();
            CompletableFuture<Optional<Boolean>> fa = ctx.async("A", () -> withLockRetrying(a, ttlA, acquired, h -> {
                h.lease().onLost(() -> lostAt.compareAndSet(0, History.now()));
                acquired.countDown();
                believe(a, h, believedUntil, SETUP);
                await(bDone, Duration.ofSeconds(10));
                return true;
            }));
            if (!await(acquired, SETUP)) throw new IllegalStateException("scenario set-up failed: A could not acquire");
            Optional<Held> hb;
            try (FaultHandle late = ctx.nemesis().latency(ProxySet.ofClient(a.id()), ToxicDirection.UPSTREAM, ms(700), Duration.ZERO,
                    all)) {
                hb = b.acquire(ctx.ttl(), History.now() + SETUP.toNanos(), new Random(rnd.nextLong()), ms(3), ms(2));
                ctx.check("round " + round + ": B acquired once A's keys expired", hb.isPresent(), "");
                if (hb.isPresent()) {
                    Held h = hb.get();
                    b.write(h, b.read());
                    // B believes what it is told for 1300 ms: long after A's late extension (sent ~0.2 s after A
                    // acquired, landing 0.7 s later) would have cut B's keys down to A's 600 ms TTL
                    AtomicLong bUntil = new AtomicLong();
                    believe(b, h, bUntil, ms(1300));
                    b.release(h);
                }
                bDone.countDown();
                ScenarioContext.join(fa, Duration.ofSeconds(10));
            } finally {
                bDone.countDown();
            }
            checkLostInTime(ctx, "round " + round + ": A", lostAt.get(), believedUntil.get());
            Sleep.of(ms(50));
        }
    }

    // ---- W2 ----

    /**
     * A holds with the watchdog (TTL 600 ms) on its own proxies and asks {@code isValid()} every 5 ms. After two
     * renewals, 3 of the 5 nodes are cut from A: every extension now reaches 2 nodes, so the lease must end at its
     * deadline, {@code isValid()} must say so, and {@code onLost} must run. B (main proxies) gets the lock once A's keys
     * expire, writes and releases.
     */
    static void watchdogLosesNodes(ScenarioContext ctx) {
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        Random rnd = ctx.random();
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            int[] cut = ScriptSteps.pickOthers(rnd, ctx.settings().nodes(), -1, ctx.settings().quorum());
            CountDownLatch acquired = new CountDownLatch(1);
            CountDownLatch cutDone = new CountDownLatch(1);
            AtomicLong lostAt = new AtomicLong();
            AtomicLong believedUntil = new AtomicLong();
            CompletableFuture<Optional<Boolean>> fa = ctx.async("A", () -> withLockRetrying(a, ctx.ttl(), acquired, h -> {
                h.lease().onLost(() -> lostAt.compareAndSet(0, History.now()));
                acquired.countDown();
                believe(a, h, believedUntil, ctx.ttl().multipliedBy(5));
                await(cutDone, Duration.ofSeconds(10));
                // give onLost its chance without calling checkValid(), which would mark the lease lost itself
                ScenarioContext.await(() -> lostAt.get() != 0, LOST_NOTICE.multipliedBy(2));
                return true;
            }));
            if (!await(acquired, SETUP)) throw new IllegalStateException("scenario set-up failed: A could not acquire");
            Sleep.of(ctx.ttl().multipliedBy(3).dividedBy(4));   // two renewals (every ttl/3)
            Optional<Held> hb;
            try (FaultHandle part = ctx.nemesis().cut(ProxySet.ofClient(a.id()), cut)) {
                hb = b.acquire(ctx.ttl(), History.now() + ctx.ttl().multipliedBy(4).toNanos(), new Random(rnd.nextLong()),
                        ms(3), ms(2));
                hb.ifPresent(h -> {
                    if (b.isValid(h)) b.write(h, b.read());
                    b.release(h);
                });
            } finally {
                cutDone.countDown();
            }
            ScenarioContext.join(fa, Duration.ofSeconds(10));
            ctx.check("round " + round + ": B acquired once A's keys expired", hb.isPresent(), "");
            checkLostInTime(ctx, "round " + round + ": A", lostAt.get(), believedUntil.get());
            Sleep.of(ms(50));
        }
    }

    // ---- W3 ----

    /**
     * 100 ms ± 60 ms of latency each way between A and every node (nodeTimeout 600 ms, TTL 800 ms). Phase 1: A
     * acquires and believes {@code isValid()} until it says no (the acquire's validity must count from before the
     * votes were sent). Phase 2: A acquires, extends once, and believes {@code isValid()} until it says no (the new
     * deadline must count from when the extension was sent, not from when its reply came). The ground truth checks
     * A's keys outlived every moment A believed.
     */
    static void latentExtension(ScenarioContext ctx) {
        WorkloadClient a = ctx.client(0);
        int[] all = IntStream.range(0, ctx.settings().nodes()).toArray();
        Duration oneWay = ms(100), jitter = ms(60);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            try (FaultHandle up = ctx.nemesis().latency(ProxySet.ofClient(a.id()), ToxicDirection.UPSTREAM, oneWay, jitter, all);
                 FaultHandle down = ctx.nemesis().latency(ProxySet.ofClient(a.id()), ToxicDirection.DOWNSTREAM, oneWay, jitter, all)) {
                Held h1 = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire under latency");
                long believed1 = believe(a, h1, new AtomicLong(), ctx.ttl().multipliedBy(2));
                a.release(h1);
                Held h2 = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire under latency");
                boolean extended = a.extend(h2, ctx.ttl());
                ctx.check("round " + round + ": an extension under latency succeeds", extended, "");
                long believed2 = believe(a, h2, new AtomicLong(), ctx.ttl().multipliedBy(2));
                a.release(h2);
                ctx.history().note(String.format("round %d: A believed %.0f ms after acquiring, %.0f ms after extending",
                        round, (believed1 - h1.acquiredNanos()) / 1e6, (believed2 - h2.acquiredNanos()) / 1e6));
            }
            Sleep.of(ms(50));
        }
    }

    // ---- helpers ----

    /**
     * The client believes what it is told: asks {@code isValid()} every 5 ms (each answer recorded) until it says no or
     * {@code max} passes. Returns (and stores in {@code until}) the last moment it believed it held the lease.
     */
    static long believe(WorkloadClient c, Held h, AtomicLong until, Duration max) {
        long end = History.now() + max.toNanos();
        while (History.now() < end) {
            long asked = History.now();
            if (!c.isValid(h)) break;
            until.set(asked + h.lease().remainingValidity().toNanos());
            Sleep.of(ms(5));
        }
        return until.get();
    }

    /** {@link WorkloadClient#withLock}, tried again (up to 10 rounds, 20 ms apart) while the lock was unavailable. */
    private static Optional<Boolean> withLockRetrying(WorkloadClient c, Duration ttl, CountDownLatch acquired,
                                                      Function<Held, Boolean> task) {
        Optional<Boolean> r = Optional.empty();
        for (int i = 0; i < 10 && acquired.getCount() > 0; i++) {
            r = c.withLock(ttl, task);
            if (acquired.getCount() > 0) Sleep.of(ms(20));
        }
        return r;
    }

    /** {@code onLost} must have run, and no later than {@link #LOST_NOTICE} after the last believed deadline. */
    private static void checkLostInTime(ScenarioContext ctx, String who, long lostAt, long believedUntil) {
        long late = lostAt - believedUntil;
        ctx.check(who + " is told its lease is lost (onLost) by its deadline + " + LOST_NOTICE.toMillis() + " ms",
                lostAt != 0 && late <= LOST_NOTICE.toNanos(),
                lostAt == 0 ? "onLost never ran" : String.format("onLost ran %.1f ms after the believed deadline", late / 1e6));
    }

    private static boolean await(CountDownLatch l, Duration max) {
        try {
            return l.await(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
