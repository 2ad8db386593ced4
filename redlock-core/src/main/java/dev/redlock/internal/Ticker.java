package dev.redlock.internal;

/**
 * Internal, not API: the monotonic time source of the library's timing logic (lease validity, the watchdog, leader
 * election), injectable so tests advance time instead of sleeping. Anything here may change or disappear in any
 * release; applications must not use it.
 */
@FunctionalInterface
public interface Ticker {
    /** {@link System#nanoTime()}. */
    Ticker SYSTEM = System::nanoTime;

    /** Nanoseconds from an arbitrary origin; only differences between two readings mean anything. */
    long nanoTime();
}
