package dev.redlock;

import java.time.Duration;
import java.util.Objects;

/**
 * {@link Redlock#withLock}: acquire, run the task on the caller's thread while the watchdog extends the lease,
 * release however the task ends, and report a loss that happened while it ran.
 */
final class BlockingLocking {
    private BlockingLocking() {}

    static <T, E extends Exception> T withLock(Redlock redlock, String resource, Duration ttl, LockedTask<T, E> task)
            throws E {
        Objects.requireNonNull(task, "task");
        redlock.context().checkMayBlock("Redlock.withLock()", "Redlock.acquireAsync()");
        HeldLease lease = (HeldLease) redlock.acquire(resource, ttl);
        lease.startWatchdog();
        T result;
        boolean lost;
        String reason;
        try {
            result = task.run(lease);
        } catch (Exception e) {
            if (lease.isLost() && !(e instanceof LeaseLostException)) e.addSuppressed(new LeaseLostException(resource, lease.lostReason()));
            throw e;
        } finally {
            lost = lease.isLost();
            reason = lease.lostReason();
            lease.release();
        }
        if (lost) throw new LeaseLostException(resource, reason + " while the task ran");
        return result;
    }
}
