package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RedlockLock}: the {@link java.util.concurrent.locks.Lock} adapter, on five real nodes. */
class RedlockLockIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    /** Long enough for the watchdog to keep leases on a heavily loaded machine (load average 30 on 2 cores seen). */
    private static final Duration TTL = Duration.ofSeconds(2);

    /** Two independent clients (as two processes would have), shared by the tests that need no special config. */
    private static Redlock redlock;
    private static Redlock other;

    @BeforeAll
    static void clients() {
        redlock = Redlock.create(REDIS.config().build());
        other = Redlock.create(REDIS.config().build());
    }

    @AfterAll
    static void closeClients() {
        if (redlock != null) redlock.close();
        if (other != null) other.close();
    }

    @Test
    void lockHoldsTheLeaseOnAQuorumUntilUnlock() {
        RedlockLock lock = redlock.newLock("job", TTL);
        assertFalse(lock.isLocked());
        lock.lock();
        try {
            assertTrue(lock.isHeldByCurrentThread());
            assertTrue(lock.fencingToken() > 0);
            assertTrue(REDIS.lockKeys().size() >= 3, "keys on a quorum: " + REDIS.lockKeys());
            assertTrue(other.tryAcquire("job", TTL).isEmpty());
        } finally {
            lock.unlock();
        }
        assertFalse(lock.isLocked());
        assertEquals(List.of(), REDIS.awaitNoLockKeys());
    }

    @Test
    void reentryKeepsTheSameTokenAndOnlyTheOutermostUnlockReleases() {
        RedlockLock lock = redlock.newLock("nested", TTL);
        lock.lock();
        long token = lock.fencingToken();
        long roundsAfterFirst = redlock.context().roundsStarted();
        assertTrue(lock.tryLock());
        lock.lock();
        assertEquals(3, lock.getHoldCount());
        assertEquals(token, lock.fencingToken(), "re-entry keeps the lease and its token");
        assertEquals(roundsAfterFirst, redlock.context().roundsStarted(), "re-entry makes no Redis round");
        lock.unlock();
        lock.unlock();
        assertTrue(other.tryAcquire("nested", TTL).isEmpty(), "an inner unlock must not release the lease");
        lock.unlock();
        try (Lease next = other.acquire("nested", TTL)) {
            assertTrue(next.fencingToken() > token);
        }
    }

    @Test
    void theWatchdogKeepsTheLockPastItsTtl() {
        RedlockLock lock = redlock.newLock("long", Duration.ofMillis(900));
        lock.lock();
        try {
            for (int i = 0; i < 12; i++) {          // 2.4 s: more than two and a half TTLs
                Sleep.millis(200);
                assertTrue(other.tryAcquire("long", Duration.ofMillis(900)).isEmpty(), "another client got the lock");
            }
            assertTrue(lock.fencingToken() > 0);
        } finally {
            lock.unlock();                          // no LeaseLostException: it was held throughout
        }
    }

    @Test
    void aThreadThatDoesNotHoldItCannotUnlockOrReadTheToken() throws Exception {
        RedlockLock lock = redlock.newLock("owned", TTL);
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "unlock while nobody holds it");
        lock.lock();
        try {
            CompletableFuture<Throwable> unlock = CompletableFuture.supplyAsync(() -> caught(lock::unlock));
            CompletableFuture<Throwable> token = CompletableFuture.supplyAsync(() -> caught(lock::fencingToken));
            CompletableFuture<Boolean> held = CompletableFuture.supplyAsync(lock::isHeldByCurrentThread);
            assertInstanceOf(IllegalMonitorStateException.class, unlock.get(10, TimeUnit.SECONDS));
            assertTrue(unlock.get().getMessage().contains("not held by the current thread"), unlock.get().getMessage());
            assertInstanceOf(IllegalMonitorStateException.class, token.get(10, TimeUnit.SECONDS));
            assertFalse(held.get(10, TimeUnit.SECONDS));
            assertTrue(lock.isHeldByCurrentThread(), "the owner still holds it");
        } finally {
            lock.unlock();
        }
    }

    @Test
    void conditionsAreNotSupported() {
        assertThrows(UnsupportedOperationException.class, () -> redlock.newLock("c", TTL).newCondition());
    }

    @Test
    void aWaitingThreadGetsTheLockAfterTheHolderUnlocksWithAGreaterToken() throws Exception {
        RedlockLock lock = redlock.newLock("handover", TTL);
        lock.lock();
        long first = lock.fencingToken();
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> {
            waiting.countDown();
            lock.lock();
            try {
                return lock.fencingToken();
            } finally {
                lock.unlock();
            }
        });
        assertTrue(waiting.await(10, TimeUnit.SECONDS));
        Sleep.millis(100);
        assertFalse(second.isDone(), "the second thread waits while the first holds the lock");
        lock.unlock();
        assertTrue(second.get(10, TimeUnit.SECONDS) > first);
    }

    @Test
    void processesWaitForEachOtherThroughRedis() throws Exception {
        RedlockLock lockA = redlock.newLock("shared", TTL);
        RedlockLock lockB = other.newLock("shared", TTL);
        lockA.lock();
        long tokenA = lockA.fencingToken();
        CompletableFuture<Long> tokenB = CompletableFuture.supplyAsync(() -> {
            lockB.lock();
            try {
                return lockB.fencingToken();
            } finally {
                lockB.unlock();
            }
        });
        Sleep.millis(200);
        assertFalse(tokenB.isDone());
        lockA.unlock();
        assertTrue(tokenB.get(10, TimeUnit.SECONDS) > tokenA);
    }

    /** A timed-out tryLock abandons its attempt: nothing of it stays on the nodes (the extension checks after the test). */
    @Test
    void tryLockTimesOutWhileHeldElsewhereAndLeavesNoKey() throws Exception {
        // a long TTL: a grant the abandoned attempt kept would stay for seconds and fail the leftover-key check
        RedlockLock lock = redlock.newLock("busy", Duration.ofSeconds(10));
        try (Lease held = other.acquire("busy", Duration.ofSeconds(5))) {
            String owner = REDIS.ownerOn(0, "busy");
            long start = System.nanoTime();
            assertFalse(lock.tryLock(250, TimeUnit.MILLISECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(250), "returned before the time was up");
            assertFalse(lock.tryLock(), "one round, held elsewhere");
            assertFalse(lock.tryLock(0, TimeUnit.MILLISECONDS));
            assertFalse(lock.isLocked());
            assertEquals(owner, REDIS.ownerOn(0, "busy"), "the holder's key is untouched");
            assertTrue(held.isValid());
        }
    }

    @Test
    void tryLockWithTimeGetsTheLockWhenItIsReleasedInTime() throws Exception {
        RedlockLock lock = redlock.newLock("soon", TTL);
        Lease held = other.acquire("soon", Duration.ofSeconds(5));
        CompletableFuture.runAsync(() -> {
            Sleep.millis(200);
            held.release();
        });
        assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
        try {
            assertTrue(lock.fencingToken() > held.fencingToken());
        } finally {
            lock.unlock();
        }
    }

    /** Interrupted while waiting: InterruptedException, not held, and no key of the abandoned attempt stays behind. */
    @Test
    void lockInterruptiblyHonoursAnInterruptAndLeavesNoKey() throws Exception {
        // a long TTL: a grant the abandoned attempt kept would stay for seconds and fail the leftover-key check
        RedlockLock lock = redlock.newLock("intr", Duration.ofSeconds(10));
        try (Lease held = other.acquire("intr", Duration.ofSeconds(5))) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    lock.lockInterruptibly();
                    thrown.set(new AssertionError("acquired while held elsewhere"));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            waiter.start();
            Sleep.millis(300);
            assertTrue(waiter.isAlive(), "waits while the lock is held elsewhere");
            waiter.interrupt();
            waiter.join(10_000);
            assertFalse(waiter.isAlive());
            assertInstanceOf(InterruptedException.class, thrown.get());
            assertFalse(lock.isLocked());
            assertTrue(held.isValid());
            String holderValue = REDIS.ownerOn(0, "intr");
            for (int i = 1; i < 5; i++) assertEquals(holderValue, REDIS.ownerOn(i, "intr"), "only the holder's key");
        }
        assertTrue(lock.tryLock(5, TimeUnit.SECONDS), "the lock is usable after an interrupted wait");
        lock.unlock();
    }

    @Test
    void anInterruptOnEntryIsHonouredByTheInterruptibleMethods() {
        RedlockLock lock = redlock.newLock("entry", TTL);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::lockInterruptibly);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted());
        assertFalse(lock.isLocked());
    }

    @Test
    void lockIsNotInterruptibleAndKeepsTheInterruptFlag() throws Exception {
        RedlockLock lock = redlock.newLock("stubborn", TTL);
        Lease held = other.acquire("stubborn", Duration.ofSeconds(5));
        AtomicBoolean flagAfterLock = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                lock.lock();
                flagAfterLock.set(Thread.currentThread().isInterrupted());
                lock.unlock();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        waiter.start();
        Sleep.millis(200);
        waiter.interrupt();
        Sleep.millis(200);
        assertTrue(waiter.isAlive(), "lock() must go on waiting after an interrupt");
        held.release();
        waiter.join(10_000);
        assertFalse(waiter.isAlive());
        assertEquals(null, failure.get());
        assertTrue(flagAfterLock.get(), "the interrupt is kept for the caller");
    }

    @Test
    void aLostLeaseSurfacesOnFencingTokenReentryAndUnlock() throws Exception {
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            RedlockLock lock = redlock.newLock("lost", Duration.ofMillis(600));
            lock.lock();
            lock.lock();
            REDIS.node(0).pause();
            REDIS.node(1).pause();
            REDIS.node(2).pause();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                LeaseLostException fromToken = null;
                while (fromToken == null && System.nanoTime() < deadline) {
                    try {
                        lock.fencingToken();
                        Sleep.millis(50);
                    } catch (LeaseLostException e) {
                        fromToken = e;
                    }
                }
                assertTrue(fromToken != null, "the watchdog could not extend on 2 of 5 nodes: the lease must be lost");
                assertTrue(fromToken.getMessage().contains("while the lock was held"), fromToken.getMessage());
                assertThrows(LeaseLostException.class, lock::lock, "re-entry after the loss");
                assertEquals(2, lock.getHoldCount(), "a failed re-entry counts no hold");
                assertThrows(LeaseLostException.class, lock::unlock, "inner unlock reports the loss");
                assertThrows(LeaseLostException.class, lock::unlock, "outer unlock reports the loss");
                assertFalse(lock.isLocked(), "the holds were given back");
            } finally {
                REDIS.node(0).resume();
                REDIS.node(1).resume();
                REDIS.node(2).resume();
            }
            assertTrue(lock.tryLock(5, TimeUnit.SECONDS), "usable again once the nodes are back");
            lock.unlock();
        }
    }

    @Test
    void unreachableNodesFailTheWaitingMethodsInsteadOfHangingThem() throws Exception {
        RedlockConfig config = REDIS.config().nodeTimeout(Duration.ofMillis(100)).retryCount(1).build();
        try (Redlock redlock = Redlock.create(config)) {
            RedlockLock lock = redlock.newLock("down", TTL);
            REDIS.node(0).pause();
            REDIS.node(1).pause();
            REDIS.node(2).pause();
            try {
                LockUnavailableException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                        () -> assertThrows(LockUnavailableException.class, lock::lock), "lock() must not hang");
                assertTrue(e.count(NodeOutcome.Kind.TIMEOUT) + e.count(NodeOutcome.Kind.ERROR) >= 3, e.getMessage());
                assertThrows(LockUnavailableException.class, () -> lock.tryLock(5, TimeUnit.SECONDS));
                assertThrows(LockUnavailableException.class, lock::tryLock);
                assertFalse(lock.isLocked());
            } finally {
                REDIS.node(0).resume();
                REDIS.node(1).resume();
                REDIS.node(2).resume();
            }
        }
    }

    @Test
    void extendResetsTheTtlForTheOwnerOnly() throws Exception {
        RedlockLock lock = redlock.newLock("ext", Duration.ofMillis(500));
        lock.lock();
        try {
            lock.extend(Duration.ofSeconds(20));
            long pttl = Long.parseLong(REDIS.node(0).command("PTTL", RedisNodes.PREFIX + "ext"));
            assertTrue(pttl > 10_000, "pttl " + pttl);
            Throwable other = CompletableFuture.supplyAsync(() -> caught(() -> lock.extend(Duration.ofSeconds(1))))
                    .get(10, TimeUnit.SECONDS);
            assertInstanceOf(IllegalMonitorStateException.class, other);
        } finally {
            lock.unlock();
        }
    }

    @Test
    void badArgumentsAreRejectedNamingTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.newLock("__x", TTL))
                .getMessage().startsWith("resource must be"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.newLock("x", Duration.ofMillis(1)))
                .getMessage().startsWith("ttl must be"));
        RedlockLock lock = redlock.newLock("x", TTL);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> lock.lock(Duration.ZERO))
                .getMessage().startsWith("ttl must be"));
        assertFalse(lock.isLocked());
        assertEquals("x", lock.resource());
        assertEquals(TTL, lock.ttl());
    }

    private static Throwable caught(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
