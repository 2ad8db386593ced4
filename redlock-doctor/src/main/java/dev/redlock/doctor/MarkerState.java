package dev.redlock.doctor;

/**
 * The library's marker on one node, the hash {@code <keyPrefix>__node} (fields {@code run}, {@code born},
 * {@code hw}, {@code q}), read with {@code HMGET} and compared with the running server's {@code run_id}. Immutable.
 *
 * @param state          what the marker means for the next acquire
 * @param runId          the marker's {@code run} field, null when absent
 * @param bornMs         node time (ms) the identity began; 0 = marked fresh; -1 when absent
 * @param highWater      the highest fence written on the node ({@code hw}); -1 when absent
 * @param quarantineMs   the strictest quarantine any client stored ({@code q}); -1 when absent
 * @param memoryAgeMs    node time now minus {@code bornMs}; -1 when not applicable
 * @param detail         one line saying what the next acquire will do on this node
 */
public record MarkerState(State state, String runId, long bornMs, long highWater, long quarantineMs,
                          long memoryAgeMs, String detail) {
    /** What a marker means for the node's next acquire. */
    public enum State {
        /** No marker: the first acquire starts an identity and quarantines the node. */
        ABSENT,
        /** Marked fresh ({@code born} 0): grants at once, fence floor 0. */
        FRESH,
        /** This process's identity, older than its stored quarantine: grants. */
        SERVING,
        /** This process's identity, younger than its stored quarantine: refuses to grant until it has passed. */
        QUARANTINED,
        /** Written by another server process (restart, restored backup, failover): the next acquire quarantines it. */
        OTHER_IDENTITY,
        /** Could not be read (permission, wrong type, no answer). */
        UNREADABLE
    }
}
