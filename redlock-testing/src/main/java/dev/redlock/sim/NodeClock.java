package dev.redlock.sim;

/**
 * One node's wall clock: the simulation's virtual time times a rate, plus a start epoch and an offset. The rate and
 * the offset can change at any moment; a rate change keeps the clock continuous (it bends), an offset change steps
 * it (forward or back, as NTP stepping or an operator's {@code date -s} would). Not thread-safe.
 */
final class NodeClock {
    /** 2025-06-01T00:00:00Z in microseconds: where every node's clock starts unless offset. */
    static final long DEFAULT_EPOCH_US = 1_748_736_000_000_000L;

    private final SimScheduler time;
    private long anchorVirtualNs;
    private long anchorWallNs;
    private double rate = 1.0;
    private long offsetNs;

    NodeClock(SimScheduler time, long epochUs) {
        this.time = time;
        this.anchorVirtualNs = time.nanoTime();
        this.anchorWallNs = epochUs * 1000L;
    }

    long wallNanos() {
        long elapsed = time.nanoTime() - anchorVirtualNs;
        long scaled = rate == 1.0 ? elapsed : (long) (elapsed * rate);
        return anchorWallNs + scaled + offsetNs;
    }

    long micros() {
        return Math.floorDiv(wallNanos(), 1000L);
    }

    long millis() {
        return Math.floorDiv(wallNanos(), 1_000_000L);
    }

    /** From now on the clock advances {@code rate} node-seconds per virtual second (must be >= 0). */
    void rate(double rate) {
        if (!(rate >= 0) || Double.isInfinite(rate)) throw new IllegalArgumentException("clock rate must be >= 0, got " + rate);
        anchorWallNs = wallNanos() - offsetNs;
        anchorVirtualNs = time.nanoTime();
        this.rate = rate;
    }

    double rate() {
        return rate;
    }

    /** Sets the offset (a step of the difference from the current offset). */
    void offsetNanos(long offset) {
        this.offsetNs = offset;
    }

    long offsetNanos() {
        return offsetNs;
    }
}
