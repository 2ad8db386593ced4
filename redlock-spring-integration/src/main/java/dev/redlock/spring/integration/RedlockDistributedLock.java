package dev.redlock.spring.integration;

import dev.redlock.LeaseLostException;
import dev.redlock.LockUnavailableException;
import dev.redlock.RedlockLock;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;

/**
 * The lock {@link RedlockLockRegistry#obtain} returns for a key: a {@link RedlockLock} (re-entrant per thread, kept by
 * the Redlock watchdog while held, with a fencing token) with the behaviour Spring Integration's
 * {@code RedisLockRegistry} documents:
 * <ul>
 *   <li>{@link #unlock()} by a thread that does not hold it: {@link IllegalStateException}
 *       ({@code "You do not own lock at ..."}).</li>
 *   <li>{@link #unlock()} after the lease was lost (the watchdog could not re-hold a quorum before the validity
 *       ended): {@link ConcurrentModificationException}, a critical error: the data the lock protected may have been
 *       touched by another holder. The hold is given back all the same.</li>
 *   <li>A re-entrant lock call extends the lease to the call's TTL (as {@code RedisLockRegistry} re-sets its key's
 *       expiry), so {@code LockRegistryLeaderInitiator}'s heartbeat, a {@code tryLock} while leading, checks that the
 *       lease is still held. When it is not, the call throws {@link CannotAcquireLockException} and counts no hold.</li>
 *   <li>Redis nodes that cannot form a quorum: {@link CannotAcquireLockException} from every acquiring method, with
 *       the {@link LockUnavailableException} (every node's outcome) as its cause. Held elsewhere: the timed and
 *       untimed methods wait, {@link #tryLock()} returns false.</li>
 *   <li>{@link #newCondition()}: {@link UnsupportedOperationException}.</li>
 * </ul>
 * Ownership is per thread: do not lock and unlock on different threads (async code: use {@code Redlock.acquireAsync}).
 *
 * <p><b>Not guaranteed:</b> exclusive actions. A pause can outlast the lease; fence writes with {@link #fencingToken()}.
 * Thread-safe.
 */
public final class RedlockDistributedLock implements DistributedLock {
    private final String key;
    private final RedlockLock lock;
    private volatile long lockedAt = System.currentTimeMillis();

    RedlockDistributedLock(String key, RedlockLock lock) {
        this.key = key;
        this.lock = lock;
    }

    /** The registry key this lock was obtained for. */
    public String key() {
        return key;
    }

    /**
     * The fencing token of the lease the current thread holds (the same for every re-entry).
     *
     * @throws IllegalMonitorStateException when the current thread does not hold this lock
     * @throws LeaseLostException           when the lease was lost while held
     */
    public long fencingToken() {
        return lock.fencingToken();
    }

    @Override
    public void lock() {
        lock(lock.ttl());
    }

    @Override
    public void lock(Duration ttl) {
        boolean reentry = lock.isHeldByCurrentThread();
        try {
            lock.lock(ttl);
        } catch (LockUnavailableException | LeaseLostException e) {
            throw cannotAcquire(e);
        }
        acquired(reentry, ttl);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        boolean reentry = lock.isHeldByCurrentThread();
        try {
            lock.lockInterruptibly();
        } catch (LockUnavailableException | LeaseLostException e) {
            throw cannotAcquire(e);
        }
        acquired(reentry, lock.ttl());
    }

    @Override
    public boolean tryLock() {
        boolean reentry = lock.isHeldByCurrentThread();
        boolean got;
        try {
            got = lock.tryLock();
        } catch (LockUnavailableException | LeaseLostException e) {
            throw cannotAcquire(e);
        }
        if (got) acquired(reentry, lock.ttl());
        return got;
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return tryLock(Duration.ofNanos(unit.toNanos(time)), lock.ttl());
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
        boolean reentry = lock.isHeldByCurrentThread();
        boolean got;
        try {
            got = lock.tryLock(waitTime, ttl);
        } catch (LockUnavailableException | LeaseLostException e) {
            throw cannotAcquire(e);
        }
        if (got) acquired(reentry, ttl);
        return got;
    }

    /**
     * Releases one hold; the outermost releases the lease on every node.
     *
     * @throws IllegalStateException            when the current thread does not hold this lock
     * @throws ConcurrentModificationException when the lease was lost while held (the hold is given back)
     */
    @Override
    public void unlock() {
        if (!lock.isHeldByCurrentThread()) throw new IllegalStateException("You do not own lock at " + key);
        try {
            lock.unlock();
        } catch (LeaseLostException e) {
            ConcurrentModificationException cme = new ConcurrentModificationException("Lock was released in the store "
                    + "due to expiration. The integrity of data protected by this lock may have been compromised.");
            cme.initCause(e);
            throw cme;
        }
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("Conditions are not supported");
    }

    /** Re-sets the held lease's TTL now (the current thread must hold it); false when the lease was lost. */
    boolean renew(Duration ttl) {
        if (!lock.isHeldByCurrentThread()) return false;
        try {
            lock.extend(ttl);
            return true;
        } catch (LeaseLostException e) {
            return false;
        }
    }

    boolean isAcquiredInThisProcess() {
        return lock.isLocked();
    }

    long lockedAt() {
        return lockedAt;
    }

    /** After a successful acquisition: a re-entry extends the lease (undone, with an exception, if that fails). */
    private void acquired(boolean reentry, Duration ttl) {
        if (reentry) {
            try {
                lock.extend(ttl);
            } catch (LeaseLostException e) {
                try {
                    lock.unlock();
                } catch (LeaseLostException expected) {
                    // the hold is given back; the loss is reported below
                }
                throw cannotAcquire(e);
            }
        }
        lockedAt = System.currentTimeMillis();
    }

    private CannotAcquireLockException cannotAcquire(RuntimeException e) {
        return new CannotAcquireLockException("Failed to lock mutex at " + key + ": " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return "RedlockDistributedLock[" + key + ", " + lock + "]";
    }
}
