package dev.redlock.bench;

/**
 * One lock system under test over a fixed list of nodes. In-JVM systems get W2 and W6 from threads
 * ({@link ThreadContenders}, {@link ThreadCallers}); a system that runs in another process overrides both so its
 * loops and its clock run where its code runs.
 */
interface LockSystem extends AutoCloseable {
    String name();

    /** A new client with its own connections (W1, W3, W4). */
    LockClient newClient();

    /** W2: {@code clients} clients, each its own instance, all contending for {@code resource}. */
    default Contenders contenders(int clients, String resource, long ttlMs) {
        return new ThreadContenders(this::newClient, clients, resource, ttlMs);
    }

    /** W6: one instance, {@code callers} concurrent callers, caller {@code i} on resource {@code prefix + i}. */
    default Callers callers(int callers, String prefix, long ttlMs) {
        return new ThreadCallers(newClient(), callers, prefix, ttlMs);
    }

    @Override
    default void close() {}
}
