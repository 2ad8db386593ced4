package dev.redlock.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.testkit.Sleep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records the holds of one critical section by many clients and checks the two properties a lock must give it:
 * mutual exclusion (never two inside at once; hold intervals do not overlap) and fencing tokens that strictly
 * increase from hold to hold. Thread-safe.
 */
public final class CriticalSection {
    /** One hold: the lease's token and when its holder was inside ({@link System#nanoTime()}). */
    public record Hold(long token, long from, long to) {}

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger maxInside = new AtomicInteger();
    private final ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();

    /**
     * Enters with {@code lease} held, stays {@code workMillis}, leaves, then checks the lease was still valid
     * (else the hold did not count: {@link Lease#checkValid()} throws) and records the hold.
     */
    public void hold(Lease lease, long workMillis) {
        long from = System.nanoTime();
        maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
        Sleep.millis(workMillis);
        inside.decrementAndGet();
        lease.checkValid();
        holds.add(new Hold(lease.fencingToken(), from, System.nanoTime()));
    }

    /** Asserts {@code expected} holds, never two clients inside at once, no overlap, strictly increasing tokens. */
    public void assertExclusiveWithIncreasingTokens(int expected) {
        assertEquals(1, maxInside.get(), "two clients were inside the critical section at once");
        List<Hold> sorted = new ArrayList<>(holds);
        sorted.sort(Comparator.comparingLong(Hold::from));
        assertEquals(expected, sorted.size());
        for (int i = 1; i < sorted.size(); i++) {
            assertTrue(sorted.get(i).from() >= sorted.get(i - 1).to(), "holds overlap at " + i);
            assertTrue(sorted.get(i).token() > sorted.get(i - 1).token(), "token did not increase at " + i);
        }
    }
}
