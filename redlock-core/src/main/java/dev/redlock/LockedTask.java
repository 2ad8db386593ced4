package dev.redlock;

/**
 * The body run by {@link Redlock#withLock(String, java.time.Duration, LockedTask)} while the lock is held.
 * It may throw any exception; {@code withLock} rethrows it after releasing the lock.
 *
 * @param <T> the result type
 * @param <E> the exception type the body may throw (inferred; {@code RuntimeException} for plain lambdas)
 */
@FunctionalInterface
public interface LockedTask<T, E extends Exception> {
    /**
     * Runs with the lock held. Call {@link Lease#checkValid()} before each side effect that must not happen
     * without the lock, and pass {@link Lease#fencingToken()} to the resource you write.
     */
    T run(Lease lease) throws E;

    /**
     * {@code task}, interrupting the thread that runs it when the lease is lost while it runs (validity ran out, the
     * watchdog failed, {@code maxHold} reached, or {@link Redlock#close()} took the lease away):
     * {@code redlock.withLock(resource, ttl, LockedTask.interruptOnLoss(task))}. Blocking calls in the task then throw
     * ({@link InterruptedException}, {@link java.nio.channels.ClosedByInterruptException}, ...), so the work stops
     * instead of running on without the lock. When the loss interrupted the task, the interrupt status is cleared
     * and a {@link LeaseLostException} is thrown (whatever the task threw is its cause; a task that ignored the
     * interrupt and returned gets it too). The thread is never interrupted after the task returned. Code that
     * swallows interrupts is not stopped: check {@link Lease#checkValid()} and fence writes all the same. Works with
     * any lease ({@code LockedTask.interruptOnLoss(task).run(lease)}).
     */
    static <T, E extends Exception> LockedTask<T, E> interruptOnLoss(LockedTask<T, E> task) {
        return new InterruptOnLoss<>(task);
    }
}
