package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Many callers lock overlapping sets of resources in different orders ({a,b}, {b,c}, {c,a}, {a,b,c} and their
 * reverses), beside single-resource callers of a and c, each caller with its own Redlock, on 5 real nodes: no
 * resource ever has two holders inside at once, each resource's tokens strictly increase from holder to holder, every
 * caller finishes (no deadlock: a bound of minutes, not a speed), and no lock key is left.
 */
class AcquireAllContentionIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    private static final List<List<String>> SETS = List.of(List.of("a", "b"), List.of("b", "c"), List.of("c", "a"),
            List.of("a", "b", "c"));
    private static final int MULTI_CALLERS = 8;
    private static final int SINGLE_CALLERS = 2;
    private static final int HOLDS = 50;
    /** Proves progress, not speed: a deadlock (or a livelock) would hold every caller past it. */
    private static final long BOUND_SECONDS = 120;

    /** Who is inside each resource's critical section, and the token of its last holder. Thread-safe. */
    private static final class Ledger {
        private final Map<String, Object> inside = new LinkedHashMap<>();      // guarded by this
        private final Map<String, Long> lastToken = new LinkedHashMap<>();     // guarded by this
        private final Map<String, Integer> holds = new LinkedHashMap<>();      // guarded by this
        private final Map<String, Long> firstToken = new LinkedHashMap<>();    // guarded by this
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger regressions = new AtomicInteger();
        final List<String> problems = new ArrayList<>();                        // guarded by this

        synchronized void enter(Object who, String resource, long token) {
            Object there = inside.putIfAbsent(resource, who);
            if (there != null) {
                overlaps.incrementAndGet();
                problems.add(resource + ": entered while another holder was inside");
            }
            Long last = lastToken.get(resource);
            if (last != null && token <= last) {
                regressions.incrementAndGet();
                problems.add(resource + ": token " + token + " after " + last);
            }
            lastToken.put(resource, token);
            firstToken.putIfAbsent(resource, token);
            holds.merge(resource, 1, Integer::sum);
        }

        synchronized void leave(Object who, String resource) {
            inside.remove(resource, who);
        }

        synchronized String describe() {
            StringBuilder b = new StringBuilder();
            for (String r : holds.keySet()) {
                b.append(String.format("  %s: %d holders, tokens %d .. %d%n", r, holds.get(r), firstToken.get(r), lastToken.get(r)));
            }
            return b.toString();
        }

        synchronized int holdsOf(String resource) {
            return holds.getOrDefault(resource, 0);
        }
    }

    @Test
    void overlappingSetsInAnyOrderNeverShareAResourceAndNeverDeadlock() throws Exception {
        Ledger ledger = new Ledger();
        AtomicInteger unavailable = new AtomicInteger();
        AtomicLong rounds = new AtomicLong();
        AtomicLong fencePhases = new AtomicLong();
        int callers = MULTI_CALLERS + SINGLE_CALLERS;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Redlock> redlocks = new ArrayList<>();
        long start = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                Redlock r = Redlock.create(REDIS.config().retryCount(200).retryDelay(Duration.ofMillis(10))
                        .retryJitter(Duration.ofMillis(10)).build());
                redlocks.add(r);
                List<String> set = c < MULTI_CALLERS ? set(c) : List.of(c % 2 == 0 ? "a" : "c");
                futures.add(pool.submit(() -> {
                    Object me = new Object();
                    int done = 0;
                    while (done < HOLDS) {
                        try {
                            if (set.size() == 1) holdOne(r, set.get(0), me, ledger);
                            else holdAll(r, set, me, ledger);
                            done++;
                        } catch (LockUnavailableException e) {
                            unavailable.incrementAndGet();         // 201 rounds lost in a row: try again
                        }
                    }
                    return null;
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
            for (Future<?> f : futures) {
                try {
                    f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("callers still waiting after " + BOUND_SECONDS + " s: deadlock or livelock; "
                            + "holds so far:\n" + ledger.describe(), e);
                }
            }
        } finally {
            pool.shutdownNow();
            for (Redlock r : redlocks) {
                rounds.addAndGet(r.context().roundsStarted());
                fencePhases.addAndGet(r.context().fencePhases());
                r.close();
            }
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("acquireAll contention: %d multi callers x %d holds on {a,b},{b,c},{c,a},{a,b,c} (and "
                        + "reversed) + %d single callers x %d, 5 nodes, %d ms; %d rounds, %d second fencing phases, "
                        + "%d acquisitions unavailable (retried)%n%s", MULTI_CALLERS, HOLDS, SINGLE_CALLERS, HOLDS, ms,
                rounds.get(), fencePhases.get(), unavailable.get(), ledger.describe());
        assertEquals(List.of(), ledger.problems);
        assertEquals(0, ledger.overlaps.get());
        assertEquals(0, ledger.regressions.get());
        int expected = 0;
        for (String r : List.of("a", "b", "c")) {
            int n = 0;
            for (int c = 0; c < MULTI_CALLERS; c++) if (set(c).contains(r)) n += HOLDS;
            if (r.equals("a") || r.equals("c")) n += HOLDS;
            assertEquals(n, ledger.holdsOf(r), r);
            expected += n;
        }
        assertTrue(expected > 0);
        assertEquals(List.of(), REDIS.awaitNoLockKeys());
    }

    /** Caller c's set: the sets in turn, in the given order for the first half of the callers, reversed for the rest. */
    private static List<String> set(int c) {
        List<String> s = new ArrayList<>(SETS.get(c % SETS.size()));
        if (c >= SETS.size()) Collections.reverse(s);
        return s;
    }

    private static void holdAll(Redlock r, List<String> set, Object me, Ledger ledger) {
        try (MultiLease lease = r.acquireAll(set, Duration.ofSeconds(5))) {
            for (String res : set) ledger.enter(me, res, lease.fencingToken(res));
            try {
                Sleep.millis(1);
                lease.checkValid();
            } finally {
                for (String res : set) ledger.leave(me, res);
            }
        }
    }

    private static void holdOne(Redlock r, String resource, Object me, Ledger ledger) {
        try (Lease lease = r.acquire(resource, Duration.ofSeconds(5))) {
            ledger.enter(me, resource, lease.fencingToken());
            try {
                Sleep.millis(1);
                lease.checkValid();
            } finally {
                ledger.leave(me, resource);
            }
        }
    }
}
