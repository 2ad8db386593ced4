package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.NodeSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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
     * The intervals in which one node surely lacked {@code value}, as {start0, end0, start1, end1...}: before it
     * first showed the value (up to the send time of the last sample without it), and after it last showed it (from
     * the reply time of the first sample without it, unless the node could not be read in between); all the sampled
     * time when it never showed it.
     */
    static long[] lacking(List<NodeSample> node, String value) {
        int first = -1, last = -1;
        long firstAnswered = Long.MIN_VALUE, lastAnswered = Long.MIN_VALUE;
        for (int i = 0; i < node.size(); i++) {
            NodeSample s = node.get(i);
            if (!s.answered()) continue;
            if (firstAnswered == Long.MIN_VALUE) firstAnswered = s.sentNanos();
            lastAnswered = s.receivedNanos();
            if (s.holds(value)) {
                if (first < 0) first = i;
                last = i;
            }
        }
        if (firstAnswered == Long.MIN_VALUE) return new long[0];
        if (first < 0) return new long[] {firstAnswered, lastAnswered};
        List<Long> out = new ArrayList<>();
        for (int i = first - 1; i >= 0; i--) {
            NodeSample s = node.get(i);
            if (s.answered()) {   // the last answered sample before the value appeared: it lacked it
                out.add(Long.MIN_VALUE);
                out.add(s.sentNanos());
                break;
            }
        }
        for (int i = last + 1; i < node.size(); i++) {
            NodeSample s = node.get(i);
            // unreadable in between: it may have restarted, lost its memory and be quarantined (then it grants
            // nobody, as good as holding), or have been paused past the TTL: nothing is known about it any more
            if (!s.answered()) break;
            out.add(s.receivedNanos());   // the first sample after the value was last seen: gone for good
            out.add(Long.MAX_VALUE);
            break;
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
