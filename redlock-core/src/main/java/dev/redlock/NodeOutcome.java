package dev.redlock;

import java.time.Duration;
import java.util.Objects;

/**
 * What one Redis node answered in one quorum round: granted, refused (held by someone else, or the node is in
 * its restart quarantine), error (the node answered with an error or could not be reached), or timeout (no
 * answer within {@code nodeTimeout}).
 *
 * <p>{@link #node()} is the node's address with any password removed; {@link #detail()} is the node's error
 * text or a short reason, never a credential. Immutable.
 *
 * @param node    the node's address, credentials redacted
 * @param kind    what the node answered
 * @param detail  the error text or reason; empty for a plain grant or refusal
 * @param elapsed time from the start of the round to this node's answer (or to the timeout)
 */
public record NodeOutcome(String node, Kind kind, String detail, Duration elapsed) {

    /** The four things a node can do with a request. */
    public enum Kind { GRANTED, REFUSED, ERROR, TIMEOUT }

    public NodeOutcome {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    @Override
    public String toString() {
        return node + "=" + kind + (detail.isEmpty() ? "" : "(" + detail + ")") + "@" + elapsed.toMillis() + "ms";
    }
}
