package dev.redlock.fencing;

import dev.redlock.RedlockException;

/**
 * Thrown by {@link FencedWriteResult#orThrow()} when a fenced write was rejected because the stored fence was
 * already greater than the presented token (in strict mode: or equal to it): the writer's lease was superseded (or,
 * in strict mode, its token was used already), and whatever it computed must be discarded, not retried with the same
 * token.
 *
 * <p>Nothing was written. To try again, acquire a new lease and redo the work with its token.
 */
public class StaleTokenException extends RedlockException {
    private static final long serialVersionUID = 1L;

    private final String target;
    private final long token;
    private final long currentFence;

    public StaleTokenException(String target, long token, long currentFence) {
        super("stale fencing token " + token + " rejected by " + target + ": stored fence is " + currentFence
                + (currentFence == token ? " (strict mode: one write per token)" : " (a newer holder wrote)"));
        this.target = target;
        this.token = token;
        this.currentFence = currentFence;
    }

    /** What was written to: {@code "jobs[id=job-1]"} or {@code "redis key job:1"}. */
    public String target() {
        return target;
    }

    /** The rejected token. */
    public long token() {
        return token;
    }

    /** The stored fence read right after the rejection; {@code >= token()}. */
    public long currentFence() {
        return currentFence;
    }
}
