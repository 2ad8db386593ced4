package dev.redlock.chaos.history;

/**
 * What one node held under the protected lock key at one moment, read by the ground-truth sampler straight from the
 * redis-server port (never through a proxy, so faults do not touch it). The node's state is the one at some instant
 * in {@code [sentNanos, receivedNanos]} (one atomic script), on the history's clock.
 *
 * @param node          node index
 * @param sentNanos     when the probe was sent
 * @param receivedNanos when its reply arrived (equal to {@code sentNanos} for an unanswered probe)
 * @param answered      false when the node could not be read (down, paused past the probe's timeout, error):
 *                      nothing is known about it at that moment
 * @param value         the owner value under the key, "" when there is no key (meaningless when not answered)
 * @param pttlMs        the key's remaining TTL in ms; -2 no key, -1 a key without a TTL
 * @param runId         the identity of the redis-server process that answered: its {@code run_id}
 *                      ({@code INFO server}) and {@code master_replid} ({@code INFO replication}); a change
 *                      between two readings means the node restarted, failed over or failed back (its memory may
 *                      be another);
 *                      "" when not answered
 */
public record NodeSample(int node, long sentNanos, long receivedNanos, boolean answered, String value, long pttlMs,
                         String runId) {

    /** An unanswered reading: nothing is known about the node at that moment. */
    public static NodeSample unanswered(int node, long sentNanos) {
        return new NodeSample(node, sentNanos, sentNanos, false, "", -2, "");
    }

    /** True when the node answered and held {@code owner}. */
    public boolean holds(String owner) {
        return answered && !owner.isEmpty() && owner.equals(value);
    }

    /** True when the node answered and did not hold {@code owner} (no key, or another owner's). */
    public boolean lacks(String owner) {
        return answered && !owner.equals(value);
    }
}
