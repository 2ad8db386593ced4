package dev.redlock.doctor;

import java.util.List;

/**
 * One membership record in a node's marker: the field {@code m:<list id>} (or {@code m:<list id>+<previous list id>}
 * for a transition configuration) that every acquire writes, whose value is the node time (ms) until which the record
 * stands. While it stands, the node refuses a client that shares no list with it. Immutable.
 *
 * @param membership   {@code <list id>} or {@code <list id>+<previous list id>}
 * @param standsMs     how much longer it stands (node time, ms); 0 or less: expired (removed by the next acquire)
 * @param descriptions per list id of the record, the description the clients published
 *                     ({@code "5 nodes (quorum 3): ..."}), or "unknown" when the node no longer has it
 */
public record MembershipRecord(String membership, long standsMs, List<String> descriptions) {
    public MembershipRecord {
        descriptions = List.copyOf(descriptions);
    }

    /** The list ids of the record: one, or two for a transition configuration (new, then previous). */
    public List<String> ids() {
        return List.of(membership.split("\\+"));
    }

    /** Whether a client of list {@code listId} shares a list with this record (and would be accepted beside it). */
    public boolean accepts(String listId) {
        return ids().contains(listId);
    }

    /** "list id (description)" for each list, "transition: ..." for two. */
    public String describe() {
        List<String> ids = ids();
        StringBuilder b = new StringBuilder(ids.size() > 1 ? "transition configuration: " : "");
        for (int i = 0; i < ids.size(); i++) {
            b.append(i == 0 ? "" : ", previous ").append("node list ").append(ids.get(i)).append(" = ")
                    .append(i < descriptions.size() ? descriptions.get(i) : "unknown");
        }
        return b.toString();
    }
}
