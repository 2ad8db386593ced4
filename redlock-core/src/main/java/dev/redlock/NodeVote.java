package dev.redlock;

import java.time.Duration;

/** One node's answer to one script in one round, already classified. */
record NodeVote(int node, NodeOutcome.Kind kind, long fence, String detail, long elapsedNanos) {

    static NodeVote granted(int node, long fence, long elapsed) {
        return new NodeVote(node, NodeOutcome.Kind.GRANTED, fence, "", elapsed);
    }

    static NodeVote refused(int node, String detail, long elapsed) {
        return new NodeVote(node, NodeOutcome.Kind.REFUSED, -1, detail, elapsed);
    }

    static NodeVote error(int node, String detail, long elapsed) {
        return new NodeVote(node, NodeOutcome.Kind.ERROR, -1, detail, elapsed);
    }

    /** Why a node that has not answered by a call's node timeout counts as a TIMEOUT. */
    static final String NO_ANSWER_IN_NODE_TIMEOUT = "no answer within nodeTimeout";

    static NodeVote timeout(int node, long elapsed) {
        return timeout(node, elapsed, NO_ANSWER_IN_NODE_TIMEOUT);
    }

    static NodeVote timeout(int node, long elapsed, String reason) {
        return new NodeVote(node, NodeOutcome.Kind.TIMEOUT, -1, reason, elapsed);
    }

    boolean isGranted() {
        return kind == NodeOutcome.Kind.GRANTED;
    }

    NodeOutcome toOutcome(String nodeName) {
        return new NodeOutcome(nodeName, kind, detail, Duration.ofNanos(elapsedNanos));
    }
}
