package dev.redlock.kotlin

import dev.redlock.Lease
import dev.redlock.LeaseLostException
import dev.redlock.LockUnavailableException
import dev.redlock.Redlock
import java.time.Duration
import java.util.concurrent.CompletionException
import kotlin.coroutines.cancellation.CancellationException
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.cancel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.future.await
import kotlinx.coroutines.suspendCancellableCoroutine
import kotlinx.coroutines.withContext

/**
 * Runs [block] while holding the lock on [resource], for coroutines: no thread is blocked and nothing is tied to a
 * thread (the lease belongs to this call, whichever threads the block resumes on).
 *
 * - **Acquires** as [Redlock.acquireAsync] does (up to `retryCount` retries), suspending meanwhile. Cancelling the
 *   calling coroutine while it waits cancels the acquisition; a lease a round still obtains is released.
 * - **Keeps the lease alive** ([Lease.keepAlive]) while [block] runs, in a child scope of the caller.
 * - **On loss** (the watchdog could not extend the lease, `maxHold` was reached, or [Redlock.close] took it) the
 *   block's coroutine is cancelled, so its work stops at its next suspension point instead of running on without
 *   the lock, and this function throws [LeaseLostException] to the caller (also when the loss is noticed as the block
 *   returns). A block that catches the cancellation and returns is reported as lost all the same.
 * - **Releases** in `finally`, non-cancellable, however the block ends (value, exception, loss, cancellation of the
 *   caller), and waits until a quorum of nodes answered the release.
 *
 * Not `withLock`: Kotlin resolves `redlock.withLock(resource, ttl) { ... }` to the Java member
 * [Redlock.withLock] (blocking) before any extension of that name.
 *
 * Not guaranteed: code between two suspension points is not stopped by the cancellation, and a side effect already
 * in flight is not recalled: pass [Lease.fencingToken] to the resource you write. Example: `RedlockCoroutinesIT`.
 *
 * @throws LockUnavailableException when the lock could not be acquired (the block did not run)
 * @throws LeaseLostException when the lease was lost before the block returned
 * @throws IllegalArgumentException on a bad resource name or TTL
 */
suspend fun <T> Redlock.withLockSuspending(resource: String, ttl: Duration, block: suspend (Lease) -> T): T {
    val lease = acquireSuspending(this, resource, ttl)
    try {
        lease.keepAlive()
        val result = try {
            coroutineScope {
                val scope = this
                val lost = lease.whenLost()
                lost.whenComplete { _, error ->
                    if (error == null) scope.cancel(CancellationException("the lease on '$resource' was lost"))
                }
                try {
                    block(lease)
                } finally {
                    lost.cancel(false)                 // our own future: the lease is not affected
                }
            }
        } catch (e: CancellationException) {
            currentCoroutineContext().ensureActive()   // the caller was cancelled: that, not the loss, is the answer
            throw lossOf(lease) ?: e
        }
        lossOf(lease)?.let { throw it }
        return result
    } finally {
        withContext(NonCancellable) { lease.releaseAsync().await() }
    }
}

/** The loss of [lease] as an exception, or null while it is valid or after its holder released it. */
private fun lossOf(lease: Lease): LeaseLostException? {
    if (lease.whenLost().isCompletedExceptionally) return null   // released by the block itself
    return try {
        lease.checkValid()
        null
    } catch (e: LeaseLostException) {
        e
    }
}

/** [Redlock.acquireAsync], suspending; cancellation cancels the acquisition and releases a lease that arrives anyway. */
private suspend fun acquireSuspending(redlock: Redlock, resource: String, ttl: Duration): Lease {
    val acquisition = redlock.acquireAsync(resource, ttl)
    return suspendCancellableCoroutine { cont ->
        cont.invokeOnCancellation {
            if (!acquisition.cancel(false) && !acquisition.isCompletedExceptionally) acquisition.join().releaseAsync()
        }
        acquisition.whenComplete { lease, error ->
            if (error != null) {
                cont.resumeWith(Result.failure(if (error is CompletionException && error.cause != null) error.cause!! else error))
            } else {
                // cancelled after this resume but before the coroutine ran on: the lease is given back
                cont.resume(lease) { _, l, _ -> l.releaseAsync() }
            }
        }
    }
}
