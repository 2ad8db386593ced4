package dev.redlock;

import dev.redlock.internal.Failures;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The blocking calls' wait for an acquisition: bounded by what its rounds can take, doubled; an interrupt or the
 * bound cancels the acquisition (a lease it obtains later is released), a failure is rethrown unwrapped.
 */
final class BlockingWait {
    private BlockingWait() {}

    /** Waits for an acquisition of up to {@code rounds} rounds, at most {@link BlockingWait#acquisitionBoundMillis}. */
    static <T> T await(RedlockContext ctx, CompletableFuture<T> f, String resource, int rounds) {
        long bound = acquisitionBoundMillis(ctx.config(), rounds);
        try {
            return f.get(bound, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            f.cancel(false);
            Thread.currentThread().interrupt();
            throw new RedlockException("interrupted while acquiring '" + resource + "'", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (CancellationException e) {
            throw new RedlockException("acquisition of '" + resource + "' was cancelled", e);
        } catch (TimeoutException e) {
            f.cancel(false);
            throw new RedlockException("acquisition of '" + resource + "' did not end within " + bound + " ms, twice "
                    + "what its " + rounds + " round(s) can take (is the library's I/O thread blocked by a callback?); "
                    + "abandoned, and a lease it obtains later is released", e);
        }
    }

    /**
     * The longest an acquisition of {@code rounds} rounds can take, doubled: each round decides within a node timeout,
     * its fencing phase within another, and waits at most {@code retryDelay + retryJitter} before the next; plus the
     * connect timeout and a second. A blocking wait is never longer.
     */
    static long acquisitionBoundMillis(RedlockConfig cfg, int rounds) {
        long round = 2 * cfg.nodeTimeout().toMillis() + cfg.retryDelay().toMillis() + cfg.retryJitter().toMillis();
        return 2 * (rounds * round + NodeClient.connectTimeoutMs(cfg)) + 1000;
    }

    private static RuntimeException rethrow(Throwable t) {
        t = Failures.unwrap(t);
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error err) throw err;
        return new RedlockException(t.getMessage(), t);
    }
}
