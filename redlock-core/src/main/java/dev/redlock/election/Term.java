package dev.redlock.election;

import java.time.Instant;
import java.util.Objects;

/**
 * One term of leadership: which instance led which resource, with which epoch, since when.
 *
 * <p>The epoch is the {@linkplain dev.redlock.Lease#fencingToken() fencing token} of the lease that won the term:
 * strictly greater than the epoch of every earlier term of the same resource, whoever held it. Pass it with every
 * write the leader makes, and have the written resource reject epochs lower than the highest it has seen: that is
 * what keeps a revoked (paused, partitioned) leader from doing harm.
 *
 * <p>The same {@code Term} instance is passed to {@link LeaderElection#onElected} and, later, to
 * {@link LeaderElection#onRevoked}. Immutable and thread-safe.
 *
 * @param resource   the election's resource name
 * @param instanceId the instance that won this term
 * @param epoch      the fencing token of this term's lease; strictly increasing across terms
 * @param electedAt  wall-clock time the lease was won (for logs and reports; never used for safety)
 */
public record Term(String resource, String instanceId, long epoch, Instant electedAt) {
    public Term {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(electedAt, "electedAt");
    }
}
