package dev.redlock.testkit;

import java.time.Duration;

/**
 * Sleeps for tests and fixtures that must wait in real time: an interrupt is kept (the flag set again) and ends the
 * wait with an {@link IllegalStateException}, so a cancelled test stops instead of going on early.
 */
public final class Sleep {
    private Sleep() {}

    /** Sleeps {@code ms} milliseconds. */
    public static void millis(long ms) {
        of(Duration.ofMillis(ms));
    }

    /** Sleeps {@code d} (to the nanosecond the platform allows). */
    public static void of(Duration d) {
        try {
            Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
