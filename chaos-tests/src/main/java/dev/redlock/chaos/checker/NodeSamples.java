package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.NodeSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Helpers over the ground-truth samples of a history (see {@link GroundTruthChecker} for the reasoning). */
final class NodeSamples {
    private NodeSamples() {}

    /** The samples of each node 0..n-1, in the order they were sent. */
    static List<List<NodeSample>> byNode(List<NodeSample> samples, int nodes) {
        List<List<NodeSample>> out = new ArrayList<>();
        for (int i = 0; i < nodes; i++) out.add(new ArrayList<>());
        for (NodeSample s : samples) if (s.node() >= 0 && s.node() < nodes) out.get(s.node()).add(s);
        for (List<NodeSample> l : out) l.sort(Comparator.comparingLong(NodeSample::sentNanos));
        return out;
    }

    /**
     * The longest stretch between the send of one answered reading and the reply of the next that overlaps
     * [from, to], counting the stretches before the first and after the last answered reading as endless.
     */
    static long longestGap(List<NodeSample> node, long from, long to) {
        long longest = 0;
        NodeSample prev = null;
        boolean before = false, after = false;
        for (NodeSample s : node) {
            if (!s.answered()) continue;
            if (s.sentNanos() <= from) before = true;
            if (s.receivedNanos() >= to) after = true;
            if (prev != null && s.receivedNanos() >= from && prev.sentNanos() <= to) {
                longest = Math.max(longest, s.receivedNanos() - prev.sentNanos());
            }
            prev = s;
        }
        return before && after ? longest : Long.MAX_VALUE;
    }

    /**
     * The intervals in which one node surely lacked {@code value}, the owner value of a lease whose acquire was
     * invoked at {@code invoked}, as {start0, end0, start1, end1...}. See {@link GroundTruthChecker} for why each rule
     * is sound. The readings are cut into identities (runs of answered readings with one {@code run_id}); within one
     * identity the memory is continuous, so: before the value first showed, the node lacked it up to the send time of
     * the last reading without it; after it last showed, from the reply time of the next reading on (to the end of
     * the identity); an identity that never showed it lacked it over its readings. Then every restart or failover
     * that may have come after the value was written ({@code invoked}) protects the node: from there until the first
     * reading that shows the value of another lease granted by the new identity, it counts as holding (a new identity
     * refuses everyone during its quarantine; a grant to a round that returned no lease makes no second holder).
     * {@code leaseInvoked} maps each lease's owner value to when its acquire was invoked: a value whose acquire was
     * invoked before the new identity was first read was reloaded with the memory (a snapshot or an AOF taken while
     * that lease held), not granted by the new process, and excludes others as this lease's value would.
     */
    static long[] lacking(List<NodeSample> node, String value, long invoked, Map<String, Long> leaseInvoked) {
        List<NodeSample> answered = new ArrayList<>();
        for (NodeSample s : node) if (s.answered()) answered.add(s);
        List<long[]> lacked = new ArrayList<>();
        List<long[]> protectedBy = new ArrayList<>();
        int from = 0;
        for (int i = 1; i <= answered.size(); i++) {
            if (i < answered.size() && answered.get(i).runId().equals(answered.get(i - 1).runId())) continue;
            lacked.addAll(lackingWithin(answered.subList(from, i), value));
            if (i < answered.size() && answered.get(i).receivedNanos() > invoked) {
                protectedBy.add(new long[] {answered.get(i - 1).sentNanos(), untilAnotherLease(answered, i, value, leaseInvoked)});
            }
            from = i;
        }
        return flatten(subtract(lacked, protectedBy));
    }

    /** Within one identity's readings: where the node surely lacked the value. */
    private static List<long[]> lackingWithin(List<NodeSample> identity, String value) {
        int first = -1, last = -1;
        for (int i = 0; i < identity.size(); i++) {
            if (identity.get(i).holds(value)) {
                if (first < 0) first = i;
                last = i;
            }
        }
        long begin = identity.get(0).sentNanos(), end = identity.get(identity.size() - 1).sentNanos();
        if (first < 0) return List.of(new long[] {begin, end});
        List<long[]> out = new ArrayList<>();
        if (first > 0) out.add(new long[] {begin, identity.get(first - 1).sentNanos()});
        if (last + 1 < identity.size()) out.add(new long[] {identity.get(last + 1).receivedNanos(), end});
        return out;
    }

    /**
     * The reply time of the first reading from index {@code i} (the first of a new identity) on that shows the value
     * of another lease whose acquire was invoked after that identity was first read (so the new process granted it);
     * MAX if none.
     */
    private static long untilAnotherLease(List<NodeSample> answered, int i, String value, Map<String, Long> leaseInvoked) {
        long newIdentitySent = answered.get(i).sentNanos();
        for (int k = i; k < answered.size(); k++) {
            NodeSample s = answered.get(k);
            Long otherInvoked = leaseInvoked.get(s.value());
            if (!s.value().equals(value) && otherInvoked != null && otherInvoked >= newIdentitySent) {
                return s.receivedNanos();
            }
        }
        return Long.MAX_VALUE;
    }

    /** {@code intervals} minus every interval of {@code holes} (all as {start, end}). */
    static List<long[]> subtract(List<long[]> intervals, List<long[]> holes) {
        List<long[]> out = new ArrayList<>();
        for (long[] iv : intervals) {
            List<long[]> pieces = new ArrayList<>(List.of(iv));
            for (long[] hole : holes) {
                List<long[]> next = new ArrayList<>();
                for (long[] p : pieces) {
                    if (hole[1] <= p[0] || hole[0] >= p[1]) {
                        next.add(p);
                        continue;
                    }
                    if (hole[0] > p[0]) next.add(new long[] {p[0], hole[0]});
                    if (hole[1] < p[1]) next.add(new long[] {hole[1], p[1]});
                }
                pieces = next;
            }
            for (long[] p : pieces) if (p[1] > p[0]) out.add(p);
        }
        return out;
    }

    private static long[] flatten(List<long[]> intervals) {
        long[] out = new long[intervals.size() * 2];
        for (int i = 0; i < intervals.size(); i++) {
            out[2 * i] = intervals.get(i)[0];
            out[2 * i + 1] = intervals.get(i)[1];
        }
        return out;
    }
}
