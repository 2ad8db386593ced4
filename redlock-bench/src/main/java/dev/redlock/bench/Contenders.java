package dev.redlock.bench;

import java.util.List;
import java.util.function.Supplier;

/**
 * W2's contenders: several clients, each its own instance with its own connections, looping on acquire-release of
 * one resource and waiting in the library's own acquire. Kept open across batches so the systems can be interleaved.
 */
interface Contenders extends AutoCloseable {

    /** Lets the contenders run for {@code millis} and returns what happened in that time. */
    Batch run(long millis) throws Exception;

    @Override
    void close();

    /** Makes {@code n} clients into {@code into}; if one cannot be made, runs {@code close} (for those made) and rethrows. */
    static <T> void open(Supplier<T> factory, int n, List<T> into, Runnable close) {
        try {
            for (int c = 0; c < n; c++) into.add(factory.get());
        } catch (RuntimeException e) {
            close.run();
            throw e;
        }
    }

    /**
     * One batch: acquisitions per client completed before the stop, holders seen inside the critical section at
     * once, fencing tokens not greater than the previous holder's (never counted for systems without tokens),
     * acquire or release errors, and the measured time.
     */
    record Batch(long[] perClient, long overlaps, long tokenRegressions, long errors, long elapsedNanos) {
        Batch plus(Batch o) {
            long[] sum = perClient.clone();
            for (int i = 0; i < sum.length; i++) sum[i] += o.perClient[i];
            return new Batch(sum, overlaps + o.overlaps, tokenRegressions + o.tokenRegressions, errors + o.errors,
                    elapsedNanos + o.elapsedNanos);
        }
    }
}
