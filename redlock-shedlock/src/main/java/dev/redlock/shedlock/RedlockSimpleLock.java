package dev.redlock.shedlock;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.RedlockConfig;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.util.SimpleLockWithConfiguration;

/**
 * A ShedLock lock held on a Redlock lease, as returned by {@link RedlockLockProvider}: exposes the lease's
 * {@link #fencingToken()}. {@link #unlock()} keeps the lock until {@code lockAtLeastFor} has passed (the key's TTL is
 * re-set to end then) and releases it otherwise; {@link #extend} returns a new lock on the same lease (same token)
 * and invalidates this one. Each lock may be unlocked or extended once ({@link IllegalStateException} after that).
 *
 * <p>Not thread-safe (ShedLock uses a lock from one thread at a time).
 */
public final class RedlockSimpleLock extends AbstractSimpleLock implements SimpleLockWithConfiguration {
    private final Run run;

    RedlockSimpleLock(Run run, LockConfiguration config) {
        super(config);
        this.run = run;
    }

    /** The fencing token of the lease: strictly greater than that of every earlier holder of the job's lock. */
    public long fencingToken() {
        return run.lease().fencingToken();
    }

    /** True while the lease is held and its validity lasts (a pause can outlast it: fence the writes). */
    public boolean isValid() {
        return run.lease().isValid();
    }

    @Override
    public LockConfiguration getLockConfiguration() {
        return lockConfiguration;
    }

    @Override
    protected void doUnlock() {
        run.end();
        Lease lease = run.lease();
        Duration keep = Duration.between(ClockProvider.now(), lockConfiguration.getLockAtLeastUntil());
        if (!keep.isNegative() && !keep.isZero() && lease.isValid()) {
            try {
                lease.extend(run.ttlEndingAfter(keep));   // token-checked; this process releases it when validity ends
                return;
            } catch (LeaseLostException e) {
                return;                                   // lost: its keys were removed already
            } catch (IllegalArgumentException e) {
                // cannot keep it that long (TTL limits): release now rather than leave it
            }
        }
        lease.release();
    }

    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
        Lease lease = run.lease();
        if (!lease.isValid()) return Optional.empty();
        try {
            lease.extend(newConfiguration.getLockAtMostFor());
        } catch (LeaseLostException e) {
            return Optional.empty();
        }
        return Optional.of(new RedlockSimpleLock(run, newConfiguration));
    }

    @Override
    public String toString() {
        return "RedlockSimpleLock[" + lockConfiguration.getName() + ", " + run.lease() + "]";
    }

    /** One acquisition: the lease, shared by a lock and the locks its extensions return. */
    static final class Run {
        private final Lease lease;
        private final RedlockConfig config;
        private volatile boolean ended;

        Run(Lease lease, RedlockConfig config) {
            this.lease = lease;
            this.config = config;
        }

        Lease lease() {
            return lease;
        }

        boolean isEnded() {
            return ended;
        }

        void end() {
            ended = true;
        }

        /**
         * A TTL whose validity (TTL minus the drift allowance {@code ttl*driftFactor + fixedDrift}) lasts
         * {@code keep}, so the lease's expiry releases the lock when {@code lockAtLeastFor} has passed; capped at
         * {@code restartQuarantine} while the amnesia guard is on.
         */
        Duration ttlEndingAfter(Duration keep) {
            double millis = (keep.toNanos() / 1e6 + config.fixedDrift().toNanos() / 1e6) / (1 - config.driftFactor());
            Duration ttl = Duration.ofMillis((long) Math.ceil(millis) + 1);
            Duration cap = config.restartQuarantine();
            return !cap.isZero() && ttl.compareTo(cap) > 0 ? cap : ttl;
        }
    }
}
