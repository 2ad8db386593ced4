package dev.redlock;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Redlock#checkHealth} found at one moment: whether a quorum of nodes answered and passed the preflight
 * rules, and each node's status with the findings the rules made. Immutable; for health endpoints and diagnostics.
 *
 * <p><b>What it does not tell.</b> A healthy report does not promise that the next acquire succeeds: a lock may be
 * held elsewhere, a node may fail a moment later, and a node in its restart quarantine answers (and is UP here) but
 * refuses grants until the quarantine has passed. A node REFUSED here votes {@code ERROR} in acquisitions only once
 * the Redlock's own re-check refuses it (see {@link Preflight}).
 *
 * @param quorumReachable true when at least {@code quorum} nodes are {@link Status#UP}
 * @param quorum          the configured quorum
 * @param preflight       the configured preflight mode: with {@link Preflight#STRICT} a refusing finding makes a node
 *                        {@link Status#REFUSED}; with {@code WARN} or {@code OFF} findings are reported only
 * @param nodes           one entry per node, in the order of {@link RedlockConfig#nodes()}
 */
public record RedlockHealth(boolean quorumReachable, int quorum, Preflight preflight, List<Node> nodes) {

    /** A node's state as the check saw it. */
    public enum Status {
        /** It answered, and no preflight finding refuses it (or preflight is not STRICT). */
        UP,
        /** It answered, and under {@link Preflight#STRICT} a finding refuses it (eviction, replica, clock, version). */
        REFUSED,
        /** It did not answer in time, or answered with an error. */
        DOWN
    }

    /**
     * One node.
     *
     * @param address  {@code host:port} ({@code host:port/db} for a database other than 0), never credentials
     * @param status   what the check concluded
     * @param elapsed  how long the node's check took (up to the timeout when it did not answer)
     * @param findings the preflight rules' findings on it, refusals and warnings, one line each
     * @param error    why it is DOWN; empty otherwise
     */
    public record Node(String address, Status status, Duration elapsed, List<String> findings, String error) {
        public Node {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(elapsed, "elapsed");
            findings = List.copyOf(findings);
            Objects.requireNonNull(error, "error");
        }
    }

    public RedlockHealth {
        Objects.requireNonNull(preflight, "preflight");
        nodes = List.copyOf(nodes);
    }

    /** How many nodes are {@link Status#UP}. */
    public long up() {
        return nodes.stream().filter(n -> n.status() == Status.UP).count();
    }
}
