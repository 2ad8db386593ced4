package dev.redlock.bench;

/**
 * One client of a lock system under test, used by one thread at a time (Redisson's locks are owned by a thread).
 * The bench times {@link #acquire} and {@link #release} from the caller's side, exactly as a user would see them.
 */
interface LockClient extends AutoCloseable {

    /** Acquires {@code resource}, waiting up to {@code waitMs} when it is held; null when it could not. */
    Held acquire(String resource, long ttlMs, long waitMs) throws Exception;

    void release(Held held) throws Exception;

    @Override
    void close();

    /** A held lock: the system's own handle, and the fencing token (-1 when the system issues none). */
    record Held(Object handle, long token) {}
}
