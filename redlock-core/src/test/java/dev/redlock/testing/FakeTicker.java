package dev.redlock.testing;

import dev.redlock.internal.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A monotonic clock that stands still unless the test moves it, plus an optional step added on every reading. */
public final class FakeTicker implements Ticker {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private volatile long step;

    @Override
    public long nanoTime() {
        return now.addAndGet(step);
    }

    /** Moves the clock forward by {@code d}. */
    public void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    /** From now on, every reading first moves the clock by {@code d} (zero: it stands still again). */
    public void stepEveryReading(Duration d) {
        step = d.toNanos();
    }
}
