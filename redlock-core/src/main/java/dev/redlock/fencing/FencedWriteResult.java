package dev.redlock.fencing;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The outcome of one fenced write ({@link FencedTable} or {@link FencedRedisStore}): applied, or rejected because
 * the stored fence was already greater than the presented token (in strict mode: at least the presented token). A rejection is never silent: check
 * {@link #isApplied()} or call {@link #orThrow()}.
 *
 * <p>Immutable and thread-safe.
 */
public final class FencedWriteResult {

    /** What happened to the write. */
    public enum Status {
        /** An existing row/key was written; its fence is now the presented token. */
        APPLIED,
        /** No row existed, so {@link FencedTable#updateOrInsert} inserted one with the presented token as its fence. */
        INSERTED,
        /** Nothing was written: the stored fence was greater than the presented token (strict mode: or equal to it). */
        REJECTED_STALE,
        /** Nothing was written: {@link FencedTable#update} found no row with that id. */
        NO_ROW
    }

    private final Status status;
    private final String target;
    private final long token;
    private final long currentFence;

    private FencedWriteResult(Status status, String target, long token, long currentFence) {
        this.status = Objects.requireNonNull(status, "status");
        this.target = target;
        this.token = token;
        this.currentFence = currentFence;
    }

    static FencedWriteResult applied(String target, long token) {
        return new FencedWriteResult(Status.APPLIED, target, token, token);
    }

    static FencedWriteResult inserted(String target, long token) {
        return new FencedWriteResult(Status.INSERTED, target, token, token);
    }

    static FencedWriteResult rejected(String target, long token, long currentFence) {
        return new FencedWriteResult(Status.REJECTED_STALE, target, token, currentFence);
    }

    static FencedWriteResult noRow(String target, long token) {
        return new FencedWriteResult(Status.NO_ROW, target, token, -1);
    }

    public Status status() {
        return status;
    }

    /** True for {@link Status#APPLIED} and {@link Status#INSERTED}: the value and the token were stored. */
    public boolean isApplied() {
        return status == Status.APPLIED || status == Status.INSERTED;
    }

    /** True for {@link Status#REJECTED_STALE}. */
    public boolean isStale() {
        return status == Status.REJECTED_STALE;
    }

    /** The token that was presented. */
    public long token() {
        return token;
    }

    /** What was written to, for messages: {@code "jobs[id=job-1]"} or {@code "redis key job:1"}. */
    public String target() {
        return target;
    }

    /**
     * The fence stored after this write: the presented token when applied; when rejected, the stored fence that was
     * read right after the rejection (another writer may have raised it since, never lowered it through these
     * helpers); empty for {@link Status#NO_ROW}.
     */
    public OptionalLong currentFence() {
        return status == Status.NO_ROW ? OptionalLong.empty() : OptionalLong.of(currentFence);
    }

    /**
     * Returns this result when the write was applied.
     *
     * @throws StaleTokenException   when the write was rejected as stale
     * @throws IllegalStateException when {@link FencedTable#update} found no row ({@link Status#NO_ROW})
     */
    public FencedWriteResult orThrow() {
        switch (status) {
            case REJECTED_STALE -> throw new StaleTokenException(target, token, currentFence);
            case NO_ROW -> throw new IllegalStateException("fenced write to " + target + " with token " + token
                    + " found no row; create it first or use updateOrInsert");
            default -> {
                return this;
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FencedWriteResult r && r.status == status && r.token == token
                && r.currentFence == currentFence && Objects.equals(r.target, target);
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, target, token, currentFence);
    }

    @Override
    public String toString() {
        return "FencedWriteResult[" + status + ", " + target + ", token=" + token
                + (status == Status.NO_ROW ? "" : ", currentFence=" + currentFence) + "]";
    }
}
