package dev.redlock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This client's wall clock against the nodes', measured on ordinary traffic: every ACQUIRE reply carries the node's
 * {@code TIME}, read in the script, and its offset from this client's clock (at the reply, less half the round trip)
 * is judged per node. A one-round token guess on nodes whose fences are clocks is this client's clock plus a small
 * lead ({@link AcquireRound#guessLeadMicros}); the nodes refuse to write a guess beyond their own clock plus
 * {@link AcquireRound#guessCapMicros}, so a client whose clock is off only wastes its guesses. While more than half
 * of the nodes last seen put this client's clock farther off than the lead, guessing stops (a log line says so)
 * until the clocks agree again: every acquire then takes the second fencing phase. Safety never depends on it.
 * Thread-safe.
 */
final class ClockWatch {
    private static final Logger log = LoggerFactory.getLogger(ClockWatch.class);
    private static final byte UNKNOWN = 0, NEAR = 1, FAR = 2;

    private final byte[] state;           // per node, guarded by this
    private final long limitUs;
    private int known;                    // guarded by this
    private int far;                      // guarded by this
    private volatile boolean off;

    ClockWatch(int nodes, long limitUs) {
        this.state = new byte[nodes];
        this.limitUs = limitUs;
    }

    /**
     * A node's clock ({@code nodeUs}, read in its script) and this client's clock when the reply arrived,
     * {@code elapsedNanos} after the request was sent.
     */
    void saw(int node, long nodeUs, long clientNowUs, long elapsedNanos) {
        long halfTrip = elapsedNanos / 2000;
        long offset = nodeUs - (clientNowUs - halfTrip);
        byte s = Math.abs(offset) - halfTrip > limitUs ? FAR : NEAR;
        boolean change;
        synchronized (this) {
            byte old = state[node];
            if (old == s) return;
            state[node] = s;
            if (old == UNKNOWN) known++;
            if (old == FAR) far--;
            if (s == FAR) far++;
            boolean nowOff = 2 * far > known;
            change = nowOff != off;
            off = nowOff;
        }
        if (!change) return;
        if (off) {
            log.warn("this client's clock is {} ms from node {}'s and from most nodes' by more than the {} ms a one-round "
                    + "fencing token may lead them: tokens take the second fencing phase until the clocks agree again "
                    + "(check NTP on this host)", offset / 1000.0, node, limitUs / 1000.0);
        } else {
            log.info("this client's clock agrees with most nodes' again ({} ms from node {}): one-round fencing resumes",
                    offset / 1000.0, node);
        }
    }

    /** True while one-round guesses are worth sending (most nodes' clocks near this client's, or none seen yet). */
    boolean guessing() {
        return !off;
    }
}
