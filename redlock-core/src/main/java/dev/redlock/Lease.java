package dev.redlock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A held Redlock lock on one resource, valid until {@link #remainingValidity()} reaches zero.
 *
 * <p><b>What it guarantees.</b> While {@link #isValid()} is true (by this process's monotonic clock, with the
 * configured drift already subtracted), no other client can have been granted the same resource by a quorum,
 * provided node clocks advance at about the rate this process assumes, the restart quarantine is on (or nodes keep
 * their memory), and no node can evict lock keys (see {@link Preflight}). {@link #fencingToken()} is strictly
 * greater than the token of every earlier holder of the resource that was returned a lease.
 *
 * <p><b>What it does not guarantee.</b> No timeout-based lock is safe on its own: this process can pause (GC,
 * swap, a stopped VM) after {@code isValid()} returned true and act after the lease expired. Checking validity
 * narrows the window, it does not close it. Pass the fencing token to the protected resource and have it reject
 * tokens lower than the highest it has seen (see {@code dev.redlock.fencing}).
 *
 * <p>Thread-safe. {@link #close()} and {@link #release()} are the same, idempotent ({@link #releaseAsync()} is their
 * non-blocking form), and token-checked on every node:
 * a release can never delete another holder's key.
 */
public interface Lease extends AutoCloseable {

    /** The resource name this lease holds. */
    String resource();

    /**
     * The fencing token of this lease: strictly increasing across successive holders of the resource, even when
     * their quorums differ, when a node loses its memory or restarts from a snapshot, fails over to a replica, or
     * loses fence entries to expiry or eviction.
     *
     * <p>Tokens are <b>sparse</b> on nodes not marked fresh: a node's fence reads at least its clock in
     * microseconds, so tokens are about the current time in microseconds (around 1.8e15) and successive tokens
     * differ by the time between them, not by one. On nodes marked fresh ({@link Redlock#markNodesFresh()}) they
     * count 1, 2, 3, ... until a node's identity changes. Either way, only their order means anything.
     *
     * <p>Clock assumption, needed only after a node lost its memory: no clock that issues tokens (a client's, or
     * another node's) is ahead of that node's clock by more than {@code restartQuarantine} minus a margin
     * (min(100 ms, restartQuarantine / 4)). {@link Preflight#STRICT} enforces it by refusing a node more than half of
     * that away from this client's clock or from the other nodes'. With the amnesia guard off
     * ({@code restartQuarantine} 0) tokens after a memory loss are not guaranteed to increase.
     *
     * @throws IllegalStateException when fencing is off in the {@link RedlockConfig}
     */
    long fencingToken();

    /** Time left before this lease must be considered expired; {@link Duration#ZERO} once lost or released. */
    Duration remainingValidity();

    /** True while the lease is held: not released, not lost, validity left. */
    boolean isValid();

    /**
     * Throws if the lease is no longer valid; call before each side effect that needs the lock.
     *
     * @throws LeaseLostException when validity ran out, an extension failed, or the lease was released
     */
    void checkValid();

    /**
     * Re-sets the TTL on every node that still holds this lease and recomputes validity from the start of this
     * call. Succeeds only when a quorum confirms before the current validity ends.
     *
     * @param ttl the new time-to-live, counted from this call
     * @throws LeaseLostException when a quorum could not be re-held in time; the lease is then lost
     * @throws IllegalArgumentException when {@code ttl} is out of range (see {@link Redlock#acquire})
     */
    void extend(Duration ttl);

    /**
     * Releases the lease on every node (token-checked). Returns once a quorum of nodes answered (at most about
     * {@code nodeTimeout}); slower nodes get the release too, so for a moment the key may still exist on them, and a
     * grant of theirs that arrives later is released again. Idempotent. A node that never answers keeps the key
     * until its TTL ends; that delays the next holder and never lets two hold at once.
     */
    void release();

    /**
     * Asynchronous {@link #release()}: starts the same token-checked release on every node and returns at once. The
     * future completes (normally, never exceptionally) once a quorum of nodes answered, or every node answered or
     * timed out, at most about {@code nodeTimeout} later; slower nodes get the release too. The lease is invalid
     * from the moment this is called. Idempotent: every call returns the future of the first release. The future
     * completes on an internal I/O thread: stages chained to it must not block; cancelling or completing it
     * yourself does not stop the release.
     */
    CompletableFuture<Void> releaseAsync();

    /** Same as {@link #release()}. */
    @Override
    void close();

    /**
     * Registers a listener that runs once, on an internal thread, when the lease is lost (validity ran out or an
     * extension failed). It does not run on a normal release. Registered after the loss, it runs at once.
     * Listeners must not block for long; exceptions they throw are logged.
     */
    void onLost(Runnable listener);

    /**
     * Starts the watchdog on this lease, whichever call returned it: it is extended every ttl/3 with its current TTL
     * until it is released or lost (an extension that fails is retried until the validity ends; then the lease is
     * lost). Idempotent: a second call, or a call on a lease whose watchdog already runs ({@link Redlock#withLock}),
     * does nothing; on a released or lost lease it does nothing. With {@link RedlockConfig#maxHold()} set, an
     * auto-extended lease is lost (reason {@code MAX_HOLD}) that long after its acquire.
     *
     * @return this lease
     */
    Lease keepAlive();

    /**
     * A future that tells running work the lease was taken away, without polling. It completes <b>normally</b> when
     * the lease is lost (validity ran out, an extension failed, {@code maxHold} reached) or when
     * {@link Redlock#close()} releases it while held; it completes <b>exceptionally with a
     * {@link java.util.concurrent.CancellationException}</b> once its holder releases it first ({@link #release()},
     * {@link #close()}, {@link #releaseAsync()}). A lease that is never released nor lost leaves it pending.
     *
     * <p>Each call returns a new future: cancelling or completing it changes nothing for other callers or the lease.
     * A loss completes it on an internal events thread (the one {@link #onLost} listeners run on), a release on the
     * releasing thread: stages chained to it must not block for long. Then {@link #checkValid()} throws a
     * {@link LeaseLostException} that says why.
     */
    CompletableFuture<Void> whenLost();
}
