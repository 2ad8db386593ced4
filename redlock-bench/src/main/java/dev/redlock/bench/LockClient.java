package dev.redlock.bench;

/**
 * One client of a lock system under test, used by one thread at a time (Redisson's locks are owned by a thread);
 * clients of W6 are shared by several threads, each on its own resource.
 * The bench times {@link #acquire} and {@link #release} from the caller's side, exactly as a user would see them.
 */
interface LockClient extends AutoCloseable {

    /** Acquires {@code resource}, waiting up to {@code waitMs} when it is held; null when it could not. */
    Held acquire(String resource, long ttlMs, long waitMs) throws Exception;

    void release(Held held) throws Exception;

    @Override
    void close();

    /**
     * {@code n} acquire+release pairs of the free {@code resource}, back to back, each half timed from the caller's
     * side into {@code acquires} and {@code releases} (both null: a warm-up, nothing recorded). A pair that fails or
     * throws is not timed. A system that runs outside this JVM overrides this, so that its loop and its clock run
     * where its code runs.
     *
     * @return how many pairs failed
     */
    default int uncontended(String resource, long ttlMs, int n, Latencies acquires, Latencies releases) {
        int failures = 0;
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            Held h;
            try {
                h = acquire(resource, ttlMs, 0);
            } catch (Exception e) {                      // a system that throws on timeouts: count it as a failure
                h = null;
            }
            long t1 = System.nanoTime();
            if (h == null) {
                failures++;
                continue;
            }
            try {
                release(h);
            } catch (Exception e) {
                failures++;
                continue;
            }
            long t2 = System.nanoTime();
            if (acquires != null) {
                acquires.add(t1 - t0);
                releases.add(t2 - t1);
            }
        }
        return failures;
    }

    /** A held lock: the system's own handle, and the fencing token (-1 when the system issues none). */
    record Held(Object handle, long token) {}
}
