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

    static NodeVote timeout(int node, long elapsed) {
        return new NodeVote(node, NodeOutcome.Kind.TIMEOUT, -1, "no answer within nodeTimeout", elapsed);
    }

    boolean isGranted() {
        return kind == NodeOutcome.Kind.GRANTED;
    }

    NodeOutcome toOutcome(String nodeName) {
        return new NodeOutcome(nodeName, kind, detail, Duration.ofNanos(elapsedNanos));
    }
}
