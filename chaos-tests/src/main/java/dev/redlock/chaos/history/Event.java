package dev.redlock.chaos.history;

/**
 * One lock operation event, Jepsen-style: an {@code INVOKE} followed by exactly one completion ({@code OK},
 * {@code FAIL} or {@code INFO}) of the same client and op. {@code FAIL} means the operation definitely did not take
 * effect (the library said the lock was unavailable, or an extension was refused); {@code INFO} means the outcome is
 * unknown (an exception or a timeout): a checker must not assume it failed.
 *
 * @param seq           position in the history (append order)
 * @param type          INVOKE, OK, FAIL or INFO
 * @param op            what was attempted
 * @param client        the workload client (0-based)
 * @param nanos         harness monotonic clock ({@link System#nanoTime()})
 * @param owner         the harness's label for the lease ("c1#4": client 1, its 4th lease); empty before one exists
 * @param token         the lease's fencing token, or -1 when none
 * @param validityNanos on an acquire/extend OK: the lease's remaining validity at {@code nanos}; else 0
 * @param detail        free text (failure reason, exception), empty when none
 */
public record Event(long seq, Type type, Op op, int client, long nanos, String owner, long token, long validityNanos,
                    String detail) {

    /** Jepsen's four event types. */
    public enum Type { INVOKE, OK, FAIL, INFO }

    /**
     * Lock operations a client performs. LOST is a completion-only notice: the client learned its lease is gone.
     * VALID is a completion-only notice too: the client asked its lease ({@code isValid()}) and was told it still
     * holds it for {@code validityNanos} (how a client sees a watchdog's extensions).
     */
    public enum Op { ACQUIRE, EXTEND, RELEASE, LOST, VALID }

    /** True for OK, FAIL and INFO. */
    public boolean isCompletion() {
        return type != Type.INVOKE;
    }

    @Override
    public String toString() {
        return "#" + seq + " " + type + " " + op + " c" + client + " @" + nanos
                + (owner.isEmpty() ? "" : " " + owner) + (token >= 0 ? " token=" + token : "")
                + (validityNanos > 0 ? " validity=" + validityNanos / 1_000_000 + "ms" : "")
                + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
}
