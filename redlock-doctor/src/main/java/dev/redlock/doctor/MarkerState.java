package dev.redlock.doctor;

import java.util.List;

/**
 * The library's marker on one node, the hash {@code <keyPrefix>__node} (fields {@code run}, {@code rid},
 * {@code born}, {@code hw}, {@code q} and the membership records {@code m:...}), read with {@code HGETALL} and
 * compared with the running server's {@code run_id} and {@code master_replid}, as the library's script does.
 * Immutable.
 *
 * @param state          what the marker means for the next acquire
 * @param runId          the marker's {@code run} field, null when absent
 * @param replicationId  the marker's {@code rid} field, null when absent
 * @param bornMs         node time (ms) the identity began; 0 = marked fresh; -1 when absent
 * @param highWater      the highest fence written on the node ({@code hw}); -1 when absent
 * @param quarantineMs   the strictest quarantine any client stored ({@code q}); -1 when absent
 * @param memoryAgeMs    node time now minus {@code bornMs}; -1 when not applicable
 * @param detail         one line saying what the next acquire will do on this node
 * @param records        the membership records the node holds, standing or not
 */
public record MarkerState(State state, String runId, String replicationId, long bornMs, long highWater,
                          long quarantineMs, long memoryAgeMs, String detail, List<MembershipRecord> records) {
    public MarkerState {
        records = List.copyOf(records);
    }

    /** The records that still stand (the node refuses a client that shares no list with any of them). */
    public List<MembershipRecord> standingRecords() {
        return records.stream().filter(r -> r.standsMs() > 0).toList();
    }

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
        /**
         * Written by another server process or another replication history (restart, restored backup, failover,
         * failback): the next acquire quarantines it.
         */
        OTHER_IDENTITY,
        /** Could not be read (permission, wrong type, no answer). */
        UNREADABLE
    }
}
