package dev.redlock;

/** Monotonic time source, injectable so validity and watchdog logic can be tested without sleeping. */
@FunctionalInterface
interface Ticker {
    Ticker SYSTEM = System::nanoTime;

    long nanoTime();
}
