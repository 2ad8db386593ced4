package dev.redlock;

import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link Redlock#attempt}: one quorum round, no retries. Either it {@linkplain #acquired() acquired}
 * the lock ({@link #lease()}) or it did not, and {@link #failure()} says why, with every node's outcome of the round
 * (a {@link MembershipConflictException} when a node serves a client with another node list). A caller polling a
 * lock that is usually held learns why without catching an exception. Immutable.
 */
public final class LockAttempt {
    private final Lease lease;
    private final LockUnavailableException failure;

    private LockAttempt(Lease lease, LockUnavailableException failure) {
        this.lease = lease;
        this.failure = failure;
    }

    static LockAttempt of(Lease lease) {
        return new LockAttempt(Objects.requireNonNull(lease), null);
    }

    static LockAttempt failed(LockUnavailableException failure) {
        return new LockAttempt(null, Objects.requireNonNull(failure));
    }

    /** True when the round acquired the lock. */
    public boolean acquired() {
        return lease != null;
    }

    /** The lease, when {@linkplain #acquired() acquired}; the caller releases it. */
    public Optional<Lease> lease() {
        return Optional.ofNullable(lease);
    }

    /** Why the round did not acquire the lock (its message, reason and per-node outcomes); empty when it did. */
    public Optional<LockUnavailableException> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public String toString() {
        return acquired() ? "LockAttempt[acquired " + lease + "]" : "LockAttempt[failed: " + failure.getMessage() + "]";
    }
}
