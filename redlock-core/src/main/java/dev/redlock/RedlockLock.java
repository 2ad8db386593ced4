package dev.redlock;

import dev.redlock.internal.Failures;
import dev.redlock.internal.Resources;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Lock} over a Redlock lease on one resource, with a fencing token: obtained from
 * {@link Redlock#newLock(String, Duration)}. Threads of this process contend for the instance first (a local
 * {@link ReentrantLock}), and the thread that gets it takes the lease on a quorum of Redis nodes; the lease is then
 * kept by the watchdog (extended every ttl/3) until the outermost {@link #unlock()}.
 *
 * <p><b>Ownership is per thread</b>, as with {@link ReentrantLock}: the thread that locked must unlock, and the lock is
 * re-entrant for that thread. A virtual thread is a thread like any other here (waiting parks it, nothing pins its
 * carrier). Code whose steps run on different threads (futures, reactive pipelines, coroutines) must not use this
 * class: use {@link Redlock#acquireAsync} and pass the {@link Lease} along instead.
 *
 * <ul>
 *   <li><b>Re-entry</b> by the owner thread only counts a hold: no Redis call, the same lease, the same
 *       {@link #fencingToken()}, the same TTL ({@link #extend} changes it). Only the outermost {@code unlock()}
 *       releases the lease. Distinct {@code RedlockLock} instances for one resource are distinct contenders (they
 *       exclude each other through Redis, also within one thread): share one instance per resource.</li>
 *   <li>{@link #lock()} waits until acquired and cannot be interrupted (an interrupt is remembered and the flag set
 *       again on return). {@link #lockInterruptibly()} and {@link #tryLock(long, TimeUnit)} throw
 *       {@link InterruptedException} when the thread is interrupted on entry or while waiting, and
 *       {@code tryLock(time, unit)} returns {@code false} once the time is up. An abandoned acquisition is cancelled:
 *       a grant that still arrives is released (a node whose reply never arrives keeps the key until its TTL ends, as
 *       for any failed acquire). {@link #tryLock()} makes one quorum round.</li>
 *   <li>Waiting methods keep trying while the lock is held elsewhere, with {@code retryDelay ± retryJitter} between
 *       attempts (and a wake-up when the holder releases). They throw {@link LockUnavailableException} (with every
 *       node's outcome) instead of waiting when an attempt could not reach enough nodes to form a quorum (more than
 *       {@code N - quorum} errors or timeouts in its last round); {@link #tryLock()} throws it in that case too.</li>
 *   <li>{@link #unlock()} by a thread that does not hold the lock throws {@link IllegalMonitorStateException}, as does
 *       {@link #fencingToken()}. {@link #newCondition()} throws {@link UnsupportedOperationException}.</li>
 *   <li><b>A lost lease</b> (the watchdog could not re-hold a quorum before the validity ended, or the {@link Redlock}
 *       was closed) is reported to the owner thread by its next {@link #unlock()}, {@link #fencingToken()},
 *       {@link #extend} or re-entrant lock call as a {@link LeaseLostException}, a {@link RedlockException} (not an
 *       {@code IllegalMonitorStateException}: the caller did nothing wrong, the lock was taken away). {@code unlock()}
 *       gives the hold back before it throws, so after as many unlocks as locks the instance is free again; a
 *       re-entrant lock call that throws it does not count a hold.</li>
 * </ul>
 *
 * <p><b>What it guarantees.</b> What a {@link Lease} guarantees: while the lease is valid, no other holder's lease on
 * the resource is valid, and {@link #fencingToken()} is strictly greater than every earlier holder's token.
 *
 * <p><b>What it does not guarantee.</b> Holding the lock does not make the holder's actions exclusive: a pause (GC, a
 * stopped VM) can outlast the lease, and the loss is only reported on the next call. Pass {@link #fencingToken()} with
 * every write to a resource that rejects lower tokens ({@code dev.redlock.fencing}). No fairness between waiting
 * threads or processes. A key may remain on a node that did not answer until its TTL ends (it delays the next
 * holder, never lets two hold at once).
 *
 * <p>Thread-safe. Example: {@code RedlockLockIT} in {@code redlock-core} shows every case above.
 */
public final class RedlockLock implements Lock {
    private static final long MIN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Redlock redlock;
    private final String resource;
    private final Duration ttl;
    private final ReentrantLock local = new ReentrantLock();
    /** The owner thread's lease; written only by the thread that holds {@code local}. */
    private volatile HeldLease lease;

    RedlockLock(Redlock redlock, String resource, Duration ttl) {
        this.redlock = Objects.requireNonNull(redlock, "redlock");
        Resources.check(resource);
        redlock.context().checkTtl(ttl);
        this.resource = resource;
        this.ttl = ttl;
    }

    /** The resource this lock is on. */
    public String resource() {
        return resource;
    }

    /** The lease TTL used by {@link #lock()}, {@link #lockInterruptibly()} and the {@code tryLock} methods. */
    public Duration ttl() {
        return ttl;
    }

    /**
     * Acquires the lock, waiting as long as it takes; not interruptible.
     *
     * @throws LockUnavailableException when an attempt could not reach enough nodes to form a quorum
     * @throws LeaseLostException       on re-entry after the lease was lost (no hold is counted)
     * @throws IllegalStateException    after the {@link Redlock} was closed
     */
    @Override
    public void lock() {
        lock(ttl);
    }

    /**
     * {@link #lock()} with a lease TTL for this acquisition (a re-entry keeps the current lease and its TTL).
     *
     * @throws IllegalArgumentException when {@code ttl} is out of range (see {@link Redlock#acquire})
     */
    public void lock(Duration ttl) {
        redlock.context().checkTtl(ttl);
        local.lock();
        if (reentered()) return;
        boolean acquired = false;
        try {
            acquired = acquireUninterruptibly(ttl, false);
        } finally {
            if (!acquired) local.unlock();
        }
    }

    /**
     * Acquires the lock, waiting as long as it takes, unless the thread is interrupted.
     *
     * @throws InterruptedException     when interrupted on entry or while waiting; the lock is not held
     * @throws LockUnavailableException when an attempt could not reach enough nodes to form a quorum
     * @throws LeaseLostException       on re-entry after the lease was lost (no hold is counted)
     */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        local.lockInterruptibly();
        if (reentered()) return;
        boolean acquired = false;
        try {
            acquired = acquire(ttl, false, false, 0, true);
        } finally {
            if (!acquired) local.unlock();
        }
    }

    /**
     * One quorum round: acquires the lock if no other holder has it at the time of the call.
     *
     * @return true when acquired (or re-entered); false when another thread of this process or another holder has it
     * @throws LockUnavailableException when the round could not reach enough nodes to form a quorum
     * @throws LeaseLostException       on re-entry after the lease was lost (no hold is counted)
     */
    @Override
    public boolean tryLock() {
        if (!local.tryLock()) return false;
        if (reentered()) return true;
        boolean acquired = false;
        try {
            acquired = acquireUninterruptibly(ttl, true);
            return acquired;
        } finally {
            if (!acquired) local.unlock();
        }
    }

    /**
     * Acquires the lock if it becomes free within {@code time}; {@code time <= 0} makes one quorum round.
     *
     * @return true when acquired (or re-entered) in time, false when the time ran out first
     * @throws InterruptedException     when interrupted on entry or while waiting; the lock is not held
     * @throws LockUnavailableException when an attempt could not reach enough nodes to form a quorum
     * @throws LeaseLostException       on re-entry after the lease was lost (no hold is counted)
     */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return tryLock(Duration.ofNanos(unit.toNanos(time)), ttl);
    }

    /**
     * {@link #tryLock(long, TimeUnit)} with a lease TTL for this acquisition (a re-entry keeps the current lease and
     * its TTL).
     *
     * @throws IllegalArgumentException when {@code ttl} is out of range (see {@link Redlock#acquire})
     */
    public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
        Objects.requireNonNull(waitTime, "waitTime");
        redlock.context().checkTtl(ttl);
        long deadline = System.nanoTime() + Math.max(0, waitTime.toNanos());
        if (!local.tryLock(Math.max(0, waitTime.toNanos()), TimeUnit.NANOSECONDS)) return false;
        if (reentered()) return true;
        boolean acquired = false;
        try {
            boolean oneRound = waitTime.isNegative() || waitTime.isZero();
            acquired = acquire(ttl, oneRound, !oneRound, deadline, true);
            return acquired;
        } finally {
            if (!acquired) local.unlock();
        }
    }

    /**
     * Releases one hold; the outermost releases the lease on every node (token-checked).
     *
     * @throws IllegalMonitorStateException when the current thread does not hold this lock
     * @throws LeaseLostException           when the lease was lost while held; the hold was given back all the same
     */
    @Override
    public void unlock() {
        checkOwner("unlock");
        redlock.context().checkMayBlock("RedlockLock.unlock()", "a thread of your own");
        HeldLease l = lease;
        boolean lost = !l.isValid();
        if (local.getHoldCount() > 1) {
            local.unlock();
        } else {
            lease = null;
            try {
                l.release();
            } finally {
                local.unlock();
            }
        }
        if (lost) throw lostException(l);
    }

    /**
     * The fencing token of the lease the current thread holds: the same for every re-entry, strictly greater than the
     * token of every earlier holder of the resource.
     *
     * @throws IllegalMonitorStateException when the current thread does not hold this lock
     * @throws LeaseLostException           when the lease was lost while held
     * @throws IllegalStateException        when fencing is off in the {@link RedlockConfig}
     */
    public long fencingToken() {
        checkOwner("read the fencing token of");
        HeldLease l = lease;
        if (!l.isValid()) throw lostException(l);
        return l.fencingToken();
    }

    /**
     * Re-sets the lease's TTL on every node now (one quorum round); the watchdog goes on with the new TTL.
     *
     * @throws IllegalMonitorStateException when the current thread does not hold this lock
     * @throws LeaseLostException           when a quorum could not be re-held in time; the lease is then lost
     * @throws IllegalArgumentException     when {@code ttl} is out of range (see {@link Redlock#acquire})
     */
    public void extend(Duration ttl) {
        redlock.context().checkTtl(ttl);
        checkOwner("extend");
        HeldLease l = lease;
        if (!l.isValid()) throw lostException(l);
        l.extend(ttl);
    }

    /** True when the current thread holds this lock (even if the lease was lost meanwhile: see the class comment). */
    public boolean isHeldByCurrentThread() {
        return local.isHeldByCurrentThread();
    }

    /** How many holds the current thread has on this lock; 0 when it holds none. */
    public int getHoldCount() {
        return local.getHoldCount();
    }

    /** True when some thread of this process holds this lock. */
    public boolean isLocked() {
        return local.isLocked();
    }

    /** Not supported: a condition would need the lock to be given up and re-taken atomically across processes. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("conditions are not supported by RedlockLock (lock '" + resource + "')");
    }

    /** After {@code local} was taken: true for a re-entry (checked), false when this thread must acquire the lease. */
    private boolean reentered() {
        if (local.getHoldCount() == 1) return false;
        HeldLease l = lease;
        if (!l.isValid()) {
            local.unlock();
            throw lostException(l);
        }
        return true;
    }

    private boolean acquireUninterruptibly(Duration ttl, boolean oneRound) {
        try {
            return acquire(ttl, oneRound, false, 0, false);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible acquisition was interrupted", e);   // cannot happen
        }
    }

    /**
     * Takes the lease for the thread that holds {@code local}: attempts of {@code retryCount + 1} quorum rounds each,
     * paused {@code retryDelay ± retryJitter} apart, while the lock is held elsewhere; or a single round.
     *
     * @return true when acquired (the watchdog is then running); false when the deadline passed or the single round
     *         found the lock held
     */
    private boolean acquire(Duration ttl, boolean oneRound, boolean timed, long deadline, boolean interruptible)
            throws InterruptedException {
        redlock.context().checkMayBlock("RedlockLock.lock()/tryLock()", "Redlock.acquireAsync()");
        int rounds = oneRound ? 1 : redlock.config().retryCount() + 1;
        boolean interrupted = false;
        try {
            while (true) {
                CompletableFuture<HeldLease> attempt = redlock.start(resource, ttl, rounds,
                        oneRound ? RedlockListener.AcquireMode.TRY : RedlockListener.AcquireMode.BLOCKING);
                HeldLease got;
                while (true) {
                    try {
                        got = await(attempt, timed, deadline, rounds);
                        break;
                    } catch (InterruptedException e) {
                        if (interruptible) {
                            HeldLease late = abandon(attempt);
                            if (late != null) late.release();
                            throw e;
                        }
                        interrupted = true;
                    }
                }
                if (got != null) {
                    got.startWatchdog();
                    lease = got;
                    return true;
                }
                if (oneRound || (timed && deadline - System.nanoTime() <= 0)) return false;
                interrupted |= pause(timed, deadline, interruptible);
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /**
     * The attempt's lease; null when it ended with the lock held elsewhere or the deadline passed (then abandoned).
     * Untimed, it waits at most what its rounds can take, doubled ({@link BlockingWait#acquisitionBoundMillis}).
     */
    private HeldLease await(CompletableFuture<HeldLease> attempt, boolean timed, long deadline, int rounds)
            throws InterruptedException {
        try {
            if (!timed) {
                long bound = BlockingWait.acquisitionBoundMillis(redlock.config(), rounds);
                try {
                    return attempt.get(bound, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    HeldLease late = abandon(attempt);
                    if (late != null) return late;
                    throw new RedlockException("an attempt on lock '" + resource + "' did not end within " + bound
                            + " ms, twice what its rounds can take (is the library's I/O thread blocked?)", e);
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) throw new TimeoutException();
            return attempt.get(left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return abandon(attempt);
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = Failures.unwrap(e);
            if (cause instanceof LockUnavailableException u && !(u instanceof MembershipConflictException)
                    && !quorumUnreachable(u)) return null;
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw new RedlockException("acquiring lock '" + resource + "' failed: " + cause, cause);
        }
    }

    /** Cancels an attempt; a lease the attempt had already produced is returned (a later one is released for us). */
    private static HeldLease abandon(CompletableFuture<HeldLease> attempt) {
        if (attempt.cancel(false)) return null;
        return attempt.isCompletedExceptionally() ? null : attempt.getNow(null);
    }

    /** Sleeps {@code retryDelay ± retryJitter} (at least 1 ms), not past the deadline; true when interrupted (ignored). */
    private boolean pause(boolean timed, long deadline, boolean interruptible) throws InterruptedException {
        long nanos = Math.max(MIN_PAUSE_NANOS, redlock.context().retryDelayNanos());
        if (timed) nanos = Math.min(nanos, Math.max(0, deadline - System.nanoTime()));
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
            return false;
        } catch (InterruptedException e) {
            if (interruptible) throw e;
            return true;
        }
    }

    /** More errors and timeouts in the last round than a quorum can spare: waiting longer would not help. */
    private boolean quorumUnreachable(LockUnavailableException u) {
        List<NodeOutcome> outcomes = u.outcomes();
        boolean[] answering = new boolean[outcomes.size()];
        for (int i = 0; i < answering.length; i++) {
            NodeOutcome.Kind k = outcomes.get(i).kind();
            answering[i] = k != NodeOutcome.Kind.ERROR && k != NodeOutcome.Kind.TIMEOUT;
        }
        return !redlock.context().quorum().reachedBy(answering);
    }

    private void checkOwner(String action) {
        if (!local.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("cannot " + action + " lock '" + resource + "': not held by the "
                    + "current thread (" + Thread.currentThread().getName() + ")");
        }
    }

    private LeaseLostException lostException(HeldLease l) {
        String reason = l.lostReason();
        return new LeaseLostException(resource, reason.isEmpty() ? "released while the lock was held (Redlock closed?)"
                : reason + " while the lock was held");
    }

    @Override
    public String toString() {
        HeldLease l = lease;
        return "RedlockLock[" + resource + ", ttl=" + ttl.toMillis() + "ms, " + (l == null ? "unlocked"
                : "held, token=" + (redlock.config().fencing() ? Long.toString(l.fencingToken()) : "none")) + "]";
    }
}
