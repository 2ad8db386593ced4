package dev.redlock.election;

/**
 * Package-private seam: each change of a term, reported by the election as it makes it (under its lock), with the
 * monotonic times (the Redlock's clock) that bound {@link LeaderElection#isLeader()}. The default does nothing;
 * tests record histories through it and check them.
 */
interface TermProbe {
    TermProbe NONE = new TermProbe() {};

    /**
     * The term began (the first report of {@code term}; {@code nanos} is read before {@code isLeader()} turned true)
     * or its lease was renewed: {@code isLeader()} is false from {@code revokeAtNanos} on unless renewed again, and
     * the lease's validity ends at {@code leaseDeadlineNanos}.
     */
    default void held(Term term, long nanos, long revokeAtNanos, long leaseDeadlineNanos) {}

    /** The term ended: {@code isLeader()} has been false for it since {@code nanos}. */
    default void ended(Term term, long nanos) {}
}
