package dev.redlock.bench;

/**
 * W6's callers: one instance shared by many concurrent callers, each acquiring and releasing its own resource
 * (one round, no retries: the resources are free, so a failure is a timeout or an error). Kept open across
 * batches so the systems can be interleaved.
 */
interface Callers extends AutoCloseable {

    /** Lets the callers run for {@code millis} and returns what happened in that time. */
    Batch run(long millis) throws Exception;

    @Override
    void close();

    /** One batch: pair (acquire+release) and acquire latencies of the pairs completed before the stop, failures, time. */
    record Batch(Latencies pairs, Latencies acquires, long failures, long elapsedNanos) {
        Batch plus(Batch o) {
            Latencies p = new Latencies(pairs.count() + o.pairs.count());
            p.addAll(pairs);
            p.addAll(o.pairs);
            Latencies a = new Latencies(acquires.count() + o.acquires.count());
            a.addAll(acquires);
            a.addAll(o.acquires);
            return new Batch(p, a, failures + o.failures, elapsedNanos + o.elapsedNanos);
        }
    }
}
