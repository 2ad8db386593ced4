package dev.redlock;

import dev.redlock.internal.Ticker;

/** For tests outside {@code dev.redlock}: a {@link Redlock} that reads time on the test's clock. */
public final class ClockedRedlocks {
    private ClockedRedlocks() {}

    /** As {@link Redlock#create(RedlockConfig)}, with {@code ticker} as the monotonic clock. */
    public static Redlock create(RedlockConfig config, Ticker ticker) {
        return Redlock.create(config, ticker);
    }
}
