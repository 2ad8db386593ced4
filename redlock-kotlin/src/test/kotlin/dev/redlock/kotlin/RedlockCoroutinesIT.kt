package dev.redlock.kotlin

import dev.redlock.Lease
import dev.redlock.LeaseLostException
import dev.redlock.LockUnavailableException
import dev.redlock.Redlock
import dev.redlock.RedlockListener
import dev.redlock.testing.RedisNodes
import java.io.IOException
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executors
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicReference
import kotlin.coroutines.cancellation.CancellationException
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension

/**
 * [withLockSuspending] on real nodes: the lease outlives several TTLs while the block suspends, a lost lease cancels
 * the block and throws [LeaseLostException], cancelling the caller cancels the acquisition or releases the lease,
 * and waiting suspends instead of blocking a thread. The extension checks after each test that no key was left.
 */
class RedlockCoroutinesIT {
    companion object {
        @JvmField
        @RegisterExtension
        val REDIS = RedisNodes(3)

        private const val WAIT_MS = 10_000L
    }

    private fun free(other: Redlock, resource: String): Boolean =
        other.tryAcquire(resource, Duration.ofSeconds(1)).map { it.release(); true }.orElse(false)

    @Test
    fun theLeaseOutlivesSeveralTtlsWhileTheBlockSuspendsAndIsReleasedAfter() {
        Redlock.create(REDIS.config().build()).use { redlock ->
            Redlock.create(REDIS.config().retryCount(0).build()).use { other ->
                var someoneElseHeldIt = false
                val result = runBlocking {
                    redlock.withLockSuspending("report", Duration.ofMillis(900)) { lease ->
                        repeat(30) {                                  // 3 s: more than three TTLs
                            delay(100)
                            lease.checkValid()
                            if (other.tryAcquire("report", Duration.ofMillis(900)).isPresent) someoneElseHeldIt = true
                        }
                        "done:" + lease.fencingToken()
                    }
                }
                assertTrue(result.startsWith("done:"))
                assertFalse(someoneElseHeldIt, "another client got the lock while the block ran")
                assertTrue(free(other, "report"), "released before withLockSuspending returned")
            }
        }
    }

    @Test
    fun aLostLeaseCancelsTheBlockAndThrowsLeaseLostException() {
        Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build()).use { redlock ->
            val blockCancelled = AtomicBoolean()
            val started = AtomicBoolean()
            val thrown = AtomicReference<Throwable>()
            runBlocking {
                val job = launch {
                    try {
                        redlock.withLockSuspending("cut", Duration.ofMillis(600)) {
                            started.set(true)
                            try {
                                awaitCancellation()
                            } catch (e: CancellationException) {
                                blockCancelled.set(true)
                                throw e
                            }
                        }
                    } catch (e: Throwable) {
                        thrown.set(e)
                    }
                }
                withTimeout(WAIT_MS) { while (!started.get()) delay(10) }
                REDIS.node(0).pause()
                REDIS.node(1).pause()
                try {
                    withTimeout(WAIT_MS) { job.join() }
                } finally {
                    REDIS.node(0).resume()
                    REDIS.node(1).resume()
                }
            }
            assertTrue(blockCancelled.get(), "the block's coroutine was not cancelled")
            assertTrue(thrown.get() is LeaseLostException, "thrown: " + thrown.get())
            assertTrue(thrown.get().message!!.contains("watchdog"), thrown.get().message)
        }
    }

    @Test
    fun maxHoldCancelsABlockThatNeverEnds() {
        Redlock.create(REDIS.config().maxHold(Duration.ofSeconds(1)).build()).use { redlock ->
            val e = assertThrows(LeaseLostException::class.java) {
                runBlocking {
                    withTimeout(WAIT_MS) {
                        redlock.withLockSuspending("stuck", Duration.ofMillis(600)) { awaitCancellation() }
                    }
                }
            }
            assertTrue(e.message!!.contains("maxHold"), e.message)
        }
    }

    @Test
    fun cancellingTheCallerWhileItWaitsCancelsTheAcquisition() {
        Redlock.create(REDIS.config().build()).use { holder ->
            Redlock.create(REDIS.config().retryCount(500).retryDelay(Duration.ofMillis(20)).build()).use { redlock ->
                val held = holder.acquire("wanted", Duration.ofSeconds(5))
                val ran = AtomicBoolean()
                val outcomes = CopyOnWriteArrayList<RedlockListener.AcquireOutcome>()
                redlock.addListener(object : RedlockListener {
                    override fun onAcquire(resource: String, mode: RedlockListener.AcquireMode,
                                           outcome: RedlockListener.AcquireOutcome, rounds: Int, nanos: Long) {
                        outcomes.add(outcome)
                    }
                })
                runBlocking {
                    val job = launch { redlock.withLockSuspending("wanted", Duration.ofSeconds(30)) { ran.set(true) } }
                    delay(100)                                        // retrying while the holder has it
                    job.cancelAndJoin()
                }
                held.release()                                        // free: an acquisition still running would take it
                Thread.sleep(300)
                assertTrue(REDIS.awaitNoLockKeys().isEmpty(), "the cancelled acquisition took the lock: " + REDIS.lockKeys())
                assertFalse(ran.get())
                assertEquals(listOf(RedlockListener.AcquireOutcome.CANCELLED), outcomes, "the acquisition itself was cancelled")
            }
        }
    }

    @Test
    fun cancellingTheCallerWhileItHoldsReleasesTheLease() {
        Redlock.create(REDIS.config().build()).use { redlock ->
            Redlock.create(REDIS.config().retryCount(0).build()).use { other ->
                val seen = AtomicReference<Lease>()
                runBlocking {
                    val job = launch {
                        redlock.withLockSuspending("holding", Duration.ofSeconds(30)) { lease ->
                            seen.set(lease)
                            awaitCancellation()
                        }
                    }
                    withTimeout(WAIT_MS) { while (seen.get() == null) delay(10) }
                    job.cancelAndJoin()
                }
                assertFalse(seen.get().isValid)
                assertTrue(free(other, "holding"), "released (a quorum answered) before the cancelled caller resumed")
            }
        }
    }

    @Test
    fun anExceptionFromTheBlockIsRethrownAndTheLockReleased() {
        Redlock.create(REDIS.config().build()).use { redlock ->
            Redlock.create(REDIS.config().retryCount(0).build()).use { other ->
                val e = assertThrows(IOException::class.java) {
                    runBlocking { redlock.withLockSuspending<String>("failing", Duration.ofSeconds(2)) { throw IOException("disk full") } }
                }
                assertEquals("disk full", e.message)
                assertTrue(free(other, "failing"))
            }
        }
    }

    @Test
    fun anUnavailableLockThrowsWithoutRunningTheBlock() {
        Redlock.create(REDIS.config().build()).use { holder ->
            Redlock.create(REDIS.config().retryCount(1).build()).use { redlock ->
                val held = holder.acquire("busy", Duration.ofSeconds(5))
                val ran = AtomicBoolean()
                assertThrows(LockUnavailableException::class.java) {
                    runBlocking { redlock.withLockSuspending("busy", Duration.ofSeconds(1)) { ran.set(true) } }
                }
                assertFalse(ran.get())
                held.release()
            }
        }
    }

    @Test
    fun waitingSuspendsInsteadOfBlockingTheThread() {
        // two coroutines on ONE thread contend for one lock: if waiting blocked the thread, the holder could never
        // resume to release it and both would hang
        Executors.newSingleThreadExecutor().asCoroutineDispatcher().use { oneThread ->
            Redlock.create(REDIS.config().retryCount(200).retryDelay(Duration.ofMillis(20)).build()).use { redlock ->
                val order = runBlocking(oneThread) {
                    withTimeout(WAIT_MS) {
                        listOf("a", "b").map { name ->
                            async {
                                redlock.withLockSuspending("shared", Duration.ofSeconds(5)) {
                                    delay(300)
                                    name
                                }
                            }
                        }.awaitAll()
                    }
                }
                assertEquals(listOf("a", "b"), order.sorted())
            }
        }
    }

    @Test
    fun closingTheRedlockIsALossToTheBlock() {
        val redlock = Redlock.create(REDIS.config().build())
        val started = AtomicBoolean()
        val thrown = AtomicReference<Throwable>()
        runBlocking {
            val job = launch {
                try {
                    redlock.withLockSuspending("closing", Duration.ofSeconds(5)) {
                        started.set(true)
                        awaitCancellation()
                    }
                } catch (e: Throwable) {
                    thrown.set(e)
                }
            }
            withTimeout(WAIT_MS) { while (!started.get()) delay(10) }
            redlock.close()
            withTimeout(WAIT_MS) { job.join() }
        }
        assertTrue(thrown.get() is LeaseLostException, "thrown: " + thrown.get())
        assertTrue(thrown.get().message!!.contains("the Redlock was closed"), thrown.get().message)
    }
}
