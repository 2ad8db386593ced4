package dev.redlock.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * W2's checks inside the critical section, the same for every kind of contender: holders seen inside at once
 * (overlaps), and fencing tokens not greater than the previous holder's (regressions; only for systems that issue
 * tokens). The token order spans batches; the counts are per batch ({@link #reset}).
 */
final class CriticalSection {
    private final AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicLong overlaps = new AtomicLong();
    private final AtomicLong tokenRegressions = new AtomicLong();

    /** A holder with {@code token} (-1 for none) enters and leaves the section. */
    void pass(long token) {
        if (inside.incrementAndGet() != 1) overlaps.incrementAndGet();
        if (token >= 0) {
            long prev = lastToken.getAndSet(token);
            if (prev != Long.MIN_VALUE && token <= prev) tokenRegressions.incrementAndGet();
        }
        inside.decrementAndGet();
    }

    /** Starts a batch's counts (the token order goes on). */
    void reset() {
        overlaps.set(0);
        tokenRegressions.set(0);
    }

    long overlaps() {
        return overlaps.get();
    }

    long tokenRegressions() {
        return tokenRegressions.get();
    }
}
