package dev.redlock.chaos.scenario;

import dev.redlock.Redlock;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.WorkloadClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The steps the scenario bodies share: put A's lock on exactly a majority, run a second holder, pick nodes with the
 * scenario's seed.
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class ScriptSteps {
    /** How long a script's set-up step (an acquire, a node coming back) may take before the run is broken. */
    static final Duration SETUP = Duration.ofSeconds(3);
    /** B stops asking this long before A's validity ends, so A can still write within it. */
    static final Duration A_WRITES = Duration.ofMillis(150);
    /** The least time B must have to ask while A holds: rounds, and reconnecting to a node that restarted. */
    static final Duration B_ASKS = Duration.ofMillis(150);
    /** How often a round whose set-up was {@linkplain TooLate too slow} is tried in all. */
    static final int ROUND_ATTEMPTS = 3;

    private ScriptSteps() {}

    static Duration ms(long m) {
        return Duration.ofMillis(m);
    }

    /**
     * A acquires while partitioned from {@code others} (a black hole on A's own proxies to them: its requests there
     * are dropped, never delivered late), so it holds on exactly the other nodes; then the partition heals.
     *
     * @throws IllegalStateException when A's key did not end up on exactly the majority
     */
    static Held acquireOnMajority(ScenarioContext ctx, WorkloadClient a, int[] others) {
        ProxySet set = ProxySet.ofClient(a.id());
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
    static CompletableFuture<Optional<Held>> secondHolder(ScenarioContext ctx, WorkloadClient b, Random rnd,
                                                                  CountDownLatch wrote, CountDownLatch mayRelease) {
        return secondHolder(ctx, b, rnd, wrote, mayRelease, new AtomicReference<>());
    }

    static CompletableFuture<Optional<Held>> secondHolder(ScenarioContext ctx, WorkloadClient b, Random rnd,
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

    /**
     * A round's set-up (a restart, a failover, memory pressure...) took so long that B could no longer ask while A
     * held: the round cannot show what it is for, in either direction (a refusal nobody asked for proves nothing,
     * and a second holder cannot appear). The round is repeated ({@link #round}) or the run fails; it is never judged.
     */
    static final class TooLate extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        TooLate(String message) {
            super(message);
        }
    }

    /**
     * Until when B may ask for the lock while A holds {@code ha}: {@link #A_WRITES} before A's validity ends. First
     * B's connections are brought up ({@link Redlock#checkHealth}, read-only, bounded by what the window can spare): a
     * restart or a failover closed them, and a round waiting on a reconnect's backoff is not what a scenario measures.
     *
     * @throws TooLate after releasing A's lease, when that leaves B less than {@link #B_ASKS}
     */
    static long whileAHolds(WorkloadClient a, Held ha, WorkloadClient b) {
        long until = ha.deadlineNanos() - A_WRITES.toNanos();
        long spare = Math.min(SETUP.toNanos(), until - History.now() - B_ASKS.toNanos());
        if (spare > 0) b.redlock().checkHealth(Duration.ofNanos(spare));
        long left = until - History.now();
        if (left < B_ASKS.toNanos()) {
            a.release(ha);
            throw new TooLate(String.format(Locale.ROOT, "scenario set-up too slow: B had %.0f ms left to ask while A "
                    + "held (A's validity ends %.0f ms from now), %d ms needed", left / 1e6,
                    (ha.deadlineNanos() - History.now()) / 1e6, B_ASKS.toMillis()));
        }
        return until;
    }

    /**
     * Runs round {@code round}; when its set-up was {@linkplain TooLate too slow}, notes that and runs it again, up
     * to {@link #ROUND_ATTEMPTS} times in all (then the {@link TooLate} fails the run).
     */
    static void round(ScenarioContext ctx, int round, Runnable attempt) {
        for (int i = 1; ; i++) {
            try {
                attempt.run();
                return;
            } catch (TooLate e) {
                if (i >= ROUND_ATTEMPTS) throw e;
                ctx.history().note("round " + round + " not judged, run again: " + e.getMessage());
            }
        }
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
