package dev.redlock;

/**
 * Which sets of nodes make a quorum. Normally one group, the configured node list, and {@code quorum} of its nodes.
 * During a change of the node list (a transition configuration: {@link RedlockConfig#previousNodes()}), two
 * groups: a set is a quorum only when it holds {@code quorum} nodes of the new list <em>and</em>
 * {@code previousQuorum} nodes of the previous list, so it intersects every quorum of a client of either list.
 * Node indexes are those of {@link RedlockContext#nodes()}: the new list first, then the previous list's nodes that
 * are not in it. Immutable.
 */
final class QuorumRule {
    private final int[][] members;    // group -> node indexes
    private final int[] quorums;      // group -> quorum
    private final int[] groupsOf;     // node -> bit set of its groups

    private QuorumRule(int nodes, int[][] members, int[] quorums) {
        this.members = members;
        this.quorums = quorums;
        this.groupsOf = new int[nodes];
        for (int g = 0; g < members.length; g++) for (int n : members[g]) groupsOf[n] |= 1 << g;
    }

    /** {@code quorum} of all {@code nodes} nodes. */
    static QuorumRule of(int nodes, int quorum) {
        int[] all = new int[nodes];
        for (int i = 0; i < nodes; i++) all[i] = i;
        return new QuorumRule(nodes, new int[][] {all}, new int[] {quorum});
    }

    /** {@code quorum} of the first {@code newNodes} nodes and {@code previousQuorum} of {@code previous}. */
    static QuorumRule joint(int nodes, int newNodes, int quorum, int[] previous, int previousQuorum) {
        int[] fresh = new int[newNodes];
        for (int i = 0; i < newNodes; i++) fresh[i] = i;
        return new QuorumRule(nodes, new int[][] {fresh, previous.clone()}, new int[] {quorum, previousQuorum});
    }

    /** True for the plain rule: one list, one quorum. */
    boolean single() {
        return members.length == 1;
    }

    /** The quorum of the (new) node list. */
    int quorum() {
        return quorums[0];
    }

    /** Whether {@code nodes} (a flag per node index) contain a quorum. */
    boolean reachedBy(boolean[] nodes) {
        for (int g = 0; g < members.length; g++) {
            int n = 0;
            for (int i : members[g]) if (nodes[i]) n++;
            if (n < quorums[g]) return false;
        }
        return true;
    }

    /** How the rule reads as text: {@code "3 of 5"} or {@code "4 of 7 and 3 of the previous 5"}. */
    String describe() {
        String s = quorums[0] + " of " + members[0].length;
        return single() ? s : s + " and " + quorums[1] + " of the previous " + members[1].length;
    }

    /**
     * A counter over one call's targets (a subset of the nodes), of two things: grants against the rule (the call's
     * decision) and answers against the capped rule (enough nodes answered). {@code quorumCap} true lowers each
     * group's quorum of grants to the number of its nodes among the targets (a release sent to fewer nodes than a
     * quorum: every answer counts); answers always count against the capped rule. Not thread-safe: its
     * {@link QuorumCall} guards it.
     */
    Tally tally(int[] targets, boolean quorumCap) {
        return new Tally(targets, quorumCap);
    }

    /**
     * Grant, non-grant and answer counts per group for one call; see {@link #tally}. One array holds, per group, the
     * grants it needs, the non-grants it can take before its quorum is impossible (spare), the grants and others
     * counted, the answers it needs and the answers counted (one allocation per call).
     */
    final class Tally {
        private static final int NEED = 0;
        private static final int SPARE = 1;
        private static final int GRANTED = 2;
        private static final int OTHER = 3;
        private static final int ANSWERS_NEEDED = 4;
        private static final int ANSWERS = 5;
        private static final int FIELDS = 6;

        private final int[] counts;     // group g's fields at g * FIELDS + NEED, SPARE, GRANTED, OTHER, ...

        private Tally(int[] targets, boolean quorumCap) {
            int groups = members.length;
            counts = new int[groups * FIELDS];
            for (int g = 0; g < groups; g++) {
                int size = 0;
                for (int t : targets) if ((groupsOf[t] & (1 << g)) != 0) size++;
                int need = quorumCap ? Math.min(quorums[g], size) : quorums[g];
                counts[g * FIELDS + NEED] = need;
                counts[g * FIELDS + SPARE] = size - need;
                counts[g * FIELDS + ANSWERS_NEEDED] = Math.min(quorums[g], size);
            }
        }

        /** Counts a grant (true) or any other outcome (false) of {@code node}. */
        void count(int node, boolean grant) {
            add(node, grant ? GRANTED : OTHER);
        }

        /** Counts an answer of {@code node} (anything but a timeout), once per node. */
        void countAnswer(int node) {
            add(node, ANSWERS);
        }

        private void add(int node, int field) {
            int mask = groupsOf[node];
            for (int g = 0; mask != 0; g++, mask >>>= 1) {
                if ((mask & 1) == 0) continue;
                counts[g * FIELDS + field]++;
            }
        }

        /** Every group has its quorum of grants. */
        boolean reached() {
            for (int g = 0; g < counts.length; g += FIELDS) if (counts[g + GRANTED] < counts[g + NEED]) return false;
            return true;
        }

        /** Every group has its capped quorum of answers. */
        boolean answersReached() {
            for (int g = 0; g < counts.length; g += FIELDS) if (counts[g + ANSWERS] < counts[g + ANSWERS_NEEDED]) return false;
            return true;
        }

        /** Some group can no longer reach its quorum (spare < 0 means a group too small for it from the start). */
        boolean impossible() {
            for (int g = 0; g < counts.length; g += FIELDS) if (counts[g + OTHER] > counts[g + SPARE]) return true;
            return false;
        }
    }
}
