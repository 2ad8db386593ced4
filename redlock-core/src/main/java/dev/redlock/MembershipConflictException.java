package dev.redlock;

import java.util.List;

/**
 * Thrown when a node refused this client because it recently served a client whose node list shares no list with
 * this client's: a rolling change of the node list (or a client naming the nodes by other addresses) where old and
 * new clients run at once. Their quorums can be disjoint, so both could hold a lock; the node refuses the newcomer
 * instead, and the acquisition is not retried. It is a configuration error, not contention:
 * {@link Redlock#tryAcquire} throws it too.
 *
 * <p>The safe procedure is a transition configuration ({@link RedlockConfig.Builder#previousNodes(List)}), whose
 * rounds need a quorum of both lists; step by step in {@code docs/deployments.md}. The record that caused the
 * refusal stands on the node for twice the larger of the other client's TTL and restart quarantine after its last
 * acquire or extension.
 *
 * <p>What it does not promise: the refusal needs a node that served the other client recently and answers this
 * one. A client whose rounds never reached any node the two lists share (a partition lasting the whole record
 * window) is not seen; only the transition configuration is safe whatever the partitions.
 */
public class MembershipConflictException extends LockUnavailableException {
    private static final long serialVersionUID = 1L;

    private final String node;
    private final String thisConfiguration;
    private final String otherConfiguration;

    MembershipConflictException(String resource, int attempts, String node, String thisConfiguration,
                                String otherConfiguration, List<NodeOutcome> outcomes) {
        super(resource, attempts, reason(node, thisConfiguration, otherConfiguration), outcomes);
        this.node = node;
        this.thisConfiguration = thisConfiguration;
        this.otherConfiguration = otherConfiguration;
    }

    /** For {@link Redlock#acquireAll}. */
    MembershipConflictException(List<String> resources, int attempts, String node, String thisConfiguration,
                                String otherConfiguration, List<NodeOutcome> outcomes) {
        super(resources, attempts, reason(node, thisConfiguration, otherConfiguration), outcomes);
        this.node = node;
        this.thisConfiguration = thisConfiguration;
        this.otherConfiguration = otherConfiguration;
    }

    private static String reason(String node, String thisConfiguration, String otherConfiguration) {
        return "node " + node + " refused this client: it recently served a client with another node "
                + "list, and their quorums can be disjoint (two holders). This client: " + thisConfiguration
                + ". The other: " + otherConfiguration + ". Change a node list with a transition configuration "
                + "(RedlockConfig.Builder.previousNodes, step by step in docs/deployments.md, 'Changing the node "
                + "list'), and name every node by the same address in every client";
    }

    /** {@code host:port} of the node that refused. */
    public String node() {
        return node;
    }

    /** This client's node list (and previous list during a transition), as the nodes know it. */
    public String thisConfiguration() {
        return thisConfiguration;
    }

    /** The other client's node list(s) as recorded on the node (the ids, with the nodes when their description is there). */
    public String otherConfiguration() {
        return otherConfiguration;
    }
}
