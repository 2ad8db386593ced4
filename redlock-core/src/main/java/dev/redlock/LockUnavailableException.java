package dev.redlock;

import java.util.List;

/**
 * Thrown when a lock could not be acquired: no quorum of nodes granted it (held elsewhere, nodes down, slow or
 * answering errors), or the quorum came back too late to leave any validity. For {@link Redlock#acquireAll}: no
 * quorum granted every resource at once (a node grants all or none; {@link #outcomes()} names a resource it found
 * held).
 *
 * <p>{@link #outcomes()} lists every node's answer in the <em>last</em> round. Before this exception is thrown,
 * every node that granted was sent a token-checked release; a node whose grant never came back (a timeout) may
 * still hold the key until its TTL ends, which can delay the next acquirer but never lets two hold at once.
 */
public class LockUnavailableException extends RedlockException {
    private static final long serialVersionUID = 1L;

    private final String resource;
    private final List<String> resources;
    private final int attempts;
    private final transient List<NodeOutcome> outcomes;

    public LockUnavailableException(String resource, int attempts, String reason, List<NodeOutcome> outcomes) {
        this("lock '" + resource + "'", resource, resource == null ? List.of() : List.of(resource), attempts, reason,
                outcomes);
    }

    /** For {@link Redlock#acquireAll}: the message names every resource ({@code locks [a, b] unavailable ...}). */
    LockUnavailableException(List<String> resources, int attempts, String reason, List<NodeOutcome> outcomes) {
        this("locks " + resources, resources.toString(), resources, attempts, reason, outcomes);
    }

    private LockUnavailableException(String what, String resource, List<String> resources, int attempts, String reason,
                                     List<NodeOutcome> outcomes) {
        super(what + " unavailable after " + attempts + " attempt" + (attempts == 1 ? "" : "s") + ": " + reason
                + "; last round " + outcomes);
        this.resource = resource;
        this.resources = List.copyOf(resources);
        this.attempts = attempts;
        this.outcomes = List.copyOf(outcomes);
    }

    /** The resource name that was asked for; for {@link Redlock#acquireAll}, every one as {@code [a, b]}. */
    public String resource() {
        return resource;
    }

    /** The resources that were asked for: the one of an acquire, every one of an {@link Redlock#acquireAll}. */
    public List<String> resources() {
        return resources;
    }

    /** How many quorum rounds were tried. */
    public int attempts() {
        return attempts;
    }

    /** Every node's answer in the last round, in the configured node order. */
    public List<NodeOutcome> outcomes() {
        return outcomes;
    }

    /** How many nodes of the last round had the given outcome. */
    public long count(NodeOutcome.Kind kind) {
        return outcomes.stream().filter(o -> o.kind() == kind).count();
    }
}
