package dev.redlock.doctor;

/**
 * One answered {@code TIME} probe: this host's monotonic clock when it was sent and answered (ns), this host's wall
 * clock around it (us since the epoch), and the node's clock (us since the epoch).
 */
record Sample(long sentNanos, long answeredNanos, long wallBeforeUs, long wallAfterUs, long nodeUs) {
    long rttNanos() {
        return answeredNanos - sentNanos;
    }

    /** Midpoint on the monotonic clock, in us. */
    double monoMidUs() {
        return (sentNanos + answeredNanos) / 2000.0;
    }

    /** Node clock minus this host's wall clock at the midpoint (us). */
    long offsetUs() {
        return nodeUs - (wallBeforeUs + wallAfterUs) / 2;
    }

    /** How far {@link #offsetUs()} can be off: half the round trip (us, rounded up). */
    long uncertaintyUs() {
        return Math.max((wallAfterUs - wallBeforeUs + 1) / 2, (rttNanos() + 1999) / 2000);
    }
}
