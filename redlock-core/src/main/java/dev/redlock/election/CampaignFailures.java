package dev.redlock.election;

import dev.redlock.LockUnavailableException;
import dev.redlock.MembershipConflictException;
import dev.redlock.NodeOutcome;
import dev.redlock.RedlockException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link LeaderElection} remembers and says about campaign rounds that did not win: the last failure (for
 * {@link LeaderElection#lastFailure()}), and a log line when a round failed for a reason other than the lease being
 * held by a leader (nodes down or slow, error replies, quarantines, a membership conflict, a closed Redlock), at most
 * once a minute at WARN (the others at DEBUG), so a follower that can never be elected does not stay silent.
 * Thread-safe.
 */
final class CampaignFailures {
    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final String instanceId;
    private final String resource;
    private volatile RedlockException last;
    private long lastWarnNanos;               // guarded by this
    private int suppressed;                   // guarded by this

    CampaignFailures(String instanceId, String resource) {
        this.instanceId = instanceId;
        this.resource = resource;
    }

    /** The failure of the last campaign round, or empty when it won (or none ran yet). */
    Optional<RedlockException> last() {
        return Optional.ofNullable(last);
    }

    void won() {
        last = null;
    }

    /** A round did not win: {@code e} says why. */
    void failed(RedlockException e, long nowNanos) {
        last = e;
        if (heldByALeader(e)) {
            log.debug("{}: campaign round for '{}': held by the leader", instanceId, resource);
            return;
        }
        int skipped;
        synchronized (this) {
            if (lastWarnNanos != 0 && nowNanos - lastWarnNanos < WARN_EVERY_NANOS) {
                suppressed++;
                log.debug("{}: campaign round for '{}' failed: {}", instanceId, resource, e.getMessage());
                return;
            }
            lastWarnNanos = nowNanos == 0 ? 1 : nowNanos;
            skipped = suppressed;
            suppressed = 0;
        }
        log.warn("{}: campaign round for '{}' failed{}: {}", instanceId, resource,
                skipped == 0 ? "" : " (" + skipped + " more such rounds since the last warning)", e.getMessage());
    }

    /** The normal failure of a follower's round: every node answered, and none but with "held by another owner". */
    private static boolean heldByALeader(RedlockException e) {
        if (!(e instanceof LockUnavailableException u) || e instanceof MembershipConflictException) return false;
        if (u.outcomes().isEmpty()) return false;
        for (NodeOutcome o : u.outcomes()) {
            if (o.kind() == NodeOutcome.Kind.GRANTED) continue;
            if (o.kind() != NodeOutcome.Kind.REFUSED || !o.detail().startsWith("held by another owner")) return false;
        }
        return true;
    }
}
