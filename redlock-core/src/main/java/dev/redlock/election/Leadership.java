package dev.redlock.election;

import dev.redlock.Lease;
import java.util.concurrent.ScheduledFuture;

/** One held term: the lease it stands on and when it is revoked (monotonic nanos), guarded by the election's lock. */
final class Leadership {
    final Term term;
    final Lease lease;
    volatile long revokeAt;
    boolean ended;
    ScheduledFuture<?> revokeTimer;

    Leadership(Term term, Lease lease, long revokeAt) {
        this.term = term;
        this.lease = lease;
        this.revokeAt = revokeAt;
    }
}
