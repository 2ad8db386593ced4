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
}
