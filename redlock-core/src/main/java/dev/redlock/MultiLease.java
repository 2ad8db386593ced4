package dev.redlock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Several resources held at once by one {@link Redlock#acquireAll} (all or nothing), valid until
 * {@link #remainingValidity()} reaches zero. Not a {@link Lease}: a lease names one resource and one token, this one
 * holds several, each with its own token ({@link #fencingToken(String)}).
 *
 * <p><b>What it guarantees.</b> While {@link #isValid()} is true, no other lease ({@link Lease} or
 * {@code MultiLease}) on any of its resources can be valid, under the assumptions a {@link Lease} states: the keys
 * are the ones a {@link Lease} on each resource uses, so a {@code MultiLease} on {a, b} and a {@code Lease} on a
 * exclude each other. On every node the resources were granted together or not at all (one script per node), and an
 * acquisition holds nothing while it waits, so callers locking overlapping sets, in any order, never deadlock. Each
 * resource's token strictly increases across that resource's holders, single and multi alike; tokens of one
 * {@code MultiLease} may be equal across its resources (only the order per resource means anything). It is lost
 * as a whole: an extension counts a node only when it still holds every resource there.
 *
 * <p><b>What it does not guarantee.</b> What {@link Lease} does not: no timeout-based lock is safe on its own, so
 * fence each write with its resource's token. No fairness and no ordering between waiters: a caller of a large set
 * can wait longer than callers of small sets that keep one of its resources busy. Releasing or extending a part of
 * the set: the lease is released, extended and lost as a whole.
 *
 * <p>Thread-safe. {@link #close()} and {@link #release()} are the same, idempotent ({@link #releaseAsync()} is their
 * non-blocking form), and token-checked on every key of every node: a release never deletes another holder's key.
 * On loss, cancel and close it does what a {@link Lease} does (docs/modules.md has the table).
 */
public interface MultiLease extends AutoCloseable {

    /** The resources this lease holds, in the order given to {@link Redlock#acquireAll}, each once (unmodifiable). */
    List<String> resources();

    /**
     * The fencing token of {@code resource} in this lease: strictly greater than the token of every earlier holder of
     * that resource that was returned a lease, single or multi; see {@link Lease#fencingToken()} for how tokens look
     * and the clock assumption.
     *
     * @throws IllegalArgumentException when {@code resource} is not one of {@link #resources()}
     * @throws IllegalStateException    when fencing is off in the {@link RedlockConfig}
     */
    long fencingToken(String resource);

    /** As {@link Lease#remainingValidity()}: one validity for the whole set. */
    Duration remainingValidity();

    /** As {@link Lease#isValid()}. */
    boolean isValid();

    /**
     * As {@link Lease#checkValid()}; call before each side effect that needs the locks.
     *
     * @throws LeaseLostException naming the resources as {@code [a, b]}
     */
    void checkValid();

    /**
     * Re-sets the TTL of every resource on every node that still holds all of them, and recomputes validity from the
     * start of this call. Succeeds only when a quorum confirms before the current validity ends.
     *
     * @throws LeaseLostException       when a quorum could not be re-held in time; the lease is then lost
     * @throws IllegalArgumentException when {@code ttl} is out of range (see {@link Redlock#acquire})
     */
    void extend(Duration ttl);

    /**
     * Releases every resource on every node (token-checked per key) and wakes the waiters of each. Returns once a
     * quorum of nodes answered (at most about {@code nodeTimeout}); slower nodes get the release too. Idempotent.
     */
    void release();

    /** As {@link Lease#releaseAsync()}, for every resource: one release script per node. */
    CompletableFuture<Void> releaseAsync();

    /** Same as {@link #release()}. */
    @Override
    void close();

    /** As {@link Lease#onLost(Runnable)}: runs once when the whole lease is lost, never on a normal release. */
    void onLost(Runnable listener);

    /**
     * Starts the watchdog: extended every ttl/3 with its current TTL until released or lost, as
     * {@link Lease#keepAlive()} does (and capped by {@link RedlockConfig#maxHold()} the same way). Idempotent.
     *
     * @return this lease
     */
    MultiLease keepAlive();

    /**
     * As {@link Lease#whenLost()}: completes normally when the lease is lost or {@link Redlock#close()} releases it
     * while held, exceptionally with a {@link java.util.concurrent.CancellationException} once its holder releases
     * it first. Each call returns a new future.
     */
    CompletableFuture<Void> whenLost();
}
