package dev.redlock.spring.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;

/**
 * {@link RedlockLockRegistry} on three real nodes: the behaviours of Spring Integration's {@code RedisLockRegistryTests}
 * that apply to a Redlock registry (each test names the one it ports; "adapted" says what differs and why), plus
 * fencing tokens.
 */
class RedlockLockRegistryIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    /** Long enough for the watchdog to keep leases on a heavily loaded machine (load average 30 on 2 cores seen). */
    private static final Duration TTL = Duration.ofSeconds(2);

    /** Two processes' worth of clients. */
    private static Redlock one;
    private static Redlock two;

    @BeforeAll
    static void clients() {
        one = Redlock.create(REDIS.config().build());
        two = Redlock.create(REDIS.config().build());
    }

    @AfterAll
    static void close() {
        if (one != null) one.close();
        if (two != null) two.close();
    }

    /** testLock, testLockInterruptibly: lock and unlock repeatedly; expireUnusedOlderThan forgets unused locks. */
    @Test
    void lockUnlockRepeatedlyThenExpireUnused() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        DistributedLock first = registry.obtain("foo");
        for (int i = 0; i < 10; i++) {
            Lock lock = registry.obtain("foo");
            assertSame(first, lock);
            if (i % 2 == 0) lock.lock();
            else lock.lockInterruptibly();
            try {
                assertTrue(REDIS.lockKeys().size() >= 2, "held on a quorum: " + REDIS.lockKeys());
            } finally {
                lock.unlock();
            }
        }
        registry.expireUnusedOlderThan(-1000);
        assertNotSame(first, registry.obtain("foo"), "an unused lock is forgotten");
    }

    /** expireUnusedOlderThan keeps held locks and recently used ones. */
    @Test
    void expireUnusedKeepsHeldAndRecentLocks() {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        DistributedLock held = registry.obtain("held");
        DistributedLock recent = registry.obtain("recent");
        held.lock();
        try {
            recent.lock();
            recent.unlock();
            registry.expireUnusedOlderThan(60_000);
            assertSame(recent, registry.obtain("recent"), "used less than 60 s ago");
            registry.expireUnusedOlderThan(-1000);
            assertSame(held, registry.obtain("held"), "held locks are never forgotten");
            assertNotSame(recent, registry.obtain("recent"));
        } finally {
            held.unlock();
        }
    }

    /** testLockWithCustomTtl, testTryLockWithCustomTtl, testRenewalOnExpire (adapted: the watchdog renews, no scheduler). */
    @Test
    void aLockIsHeldPastItsTtlUntilUnlock() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, Duration.ofMillis(900));
        RedlockLockRegistry other = new RedlockLockRegistry(two, Duration.ofMillis(900));
        DistributedLock lock = registry.obtain("foo");
        lock.lock(Duration.ofSeconds(1));
        try {
            Thread.sleep(1_500);
            assertFalse(other.obtain("foo").tryLock(), "still held after more than its TTL");
        } finally {
            lock.unlock();
        }
        assertTrue(lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(1)));
        try {
            Thread.sleep(1_500);
            assertFalse(other.obtain("foo").tryLock());
        } finally {
            lock.unlock();
        }
    }

    /** testReentrantLock, testReentrantLockInterruptibly, testTwoLocks. */
    @Test
    void reentrantAndIndependentLocks() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        RedlockLockRegistry other = new RedlockLockRegistry(two, TTL);
        RedlockDistributedLock lock1 = registry.obtain("foo");
        lock1.lockInterruptibly();
        try {
            long token = lock1.fencingToken();
            RedlockDistributedLock lock2 = registry.obtain("foo");
            assertSame(lock1, lock2);
            lock2.lock();
            try {
                assertEquals(token, lock2.fencingToken(), "re-entry keeps the token");
            } finally {
                lock2.unlock();
            }
            assertFalse(other.obtain("foo").tryLock(), "the outer hold still holds the lease");
            Lock bar = registry.obtain("bar");
            assertNotSame(lock1, bar);
            bar.lockInterruptibly();
            bar.unlock();
        } finally {
            lock1.unlock();
        }
        assertTrue(other.obtain("foo").tryLock(5, TimeUnit.SECONDS));
        other.obtain("foo").unlock();
    }

    /**
     * RedisLockRegistry re-sets its key's expiry when the owner obtains it again; LockRegistryLeaderInitiator's
     * heartbeat (a tryLock while leading) relies on it to keep and check the lease.
     */
    @Test
    void aReentrantAcquisitionExtendsTheLeaseToItsTtl() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        DistributedLock lock = registry.obtain("beat");
        lock.lock(Duration.ofSeconds(1));
        try {
            assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(30)));
            long pttl = Long.parseLong(REDIS.node(0).command("PTTL", RedisNodes.PREFIX + "lock-registry:beat"));
            assertTrue(pttl > 10_000, "the re-entry re-set the TTL to 30 s, pttl " + pttl);
            lock.unlock();
        } finally {
            lock.unlock();
        }
    }

    /** testTwoThreadsSecondFailsToGetLock, testTwoThreadsWrongOneUnlocks. */
    @Test
    void anotherThreadCannotLockOrUnlock() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        Lock lock1 = registry.obtain("foo");
        lock1.lockInterruptibly();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Object[]> result = pool.submit(() -> {
                Lock lock2 = registry.obtain("foo");
                boolean locked = lock2.tryLock(200, TimeUnit.MILLISECONDS);
                try {
                    lock2.unlock();
                    return new Object[] {locked, null};
                } catch (IllegalStateException e) {
                    return new Object[] {locked, e};
                }
            });
            Object[] r = result.get(10, TimeUnit.SECONDS);
            assertEquals(false, r[0]);
            assertInstanceOf(IllegalStateException.class, r[1]);
            assertTrue(((Exception) r[1]).getMessage().contains("You do not own lock at"));
        } finally {
            lock1.unlock();
            pool.shutdownNow();
        }
        assertThrows(IllegalStateException.class, lock1::unlock, "nobody holds it now");
    }

    /** testTwoThreads, testTwoThreadsDifferentRegistries, twoRedisLockRegistryTest: the waiter gets it after unlock. */
    @Test
    void aWaitingThreadOfThisOrAnotherRegistryGetsTheLockAfterUnlock() throws Exception {
        for (RedlockLockRegistry waiterRegistry : List.of(new RedlockLockRegistry(one, TTL), new RedlockLockRegistry(two, TTL))) {
            RedlockLockRegistry registry = waiterRegistry.toString().equals("") ? null : new RedlockLockRegistry(one, TTL);
            RedlockDistributedLock lock1 = registry.obtain("foo");
            lock1.lockInterruptibly();
            long token1 = lock1.fencingToken();
            CountDownLatch waiting = new CountDownLatch(1);
            CompletableFuture<Long> token2 = CompletableFuture.supplyAsync(() -> {
                RedlockDistributedLock lock2 = waiterRegistry.obtain("foo");
                waiting.countDown();
                try {
                    lock2.lockInterruptibly();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                try {
                    return lock2.fencingToken();
                } finally {
                    lock2.unlock();
                }
            });
            assertTrue(waiting.await(10, TimeUnit.SECONDS));
            Thread.sleep(150);
            assertFalse(token2.isDone());
            lock1.unlock();
            assertTrue(token2.get(10, TimeUnit.SECONDS) > token1, "the next holder has a greater token");
        }
    }

    /** testEquals: one instance per key and registry; registries with the same prefix exclude each other, others do not. */
    @Test
    void identityAndPrefixes() throws Exception {
        RedlockLockRegistry registry1 = new RedlockLockRegistry(one, TTL);
        RedlockLockRegistry registry2 = new RedlockLockRegistry(two, TTL);
        RedlockLockRegistry registry3 = new RedlockLockRegistry(two, TTL, "other-registry:");
        assertEquals(registry1.obtain("foo"), registry1.obtain("foo"));
        assertNotEquals(registry1.obtain("foo"), registry2.obtain("foo"));
        Lock lock1 = registry1.obtain("foo");
        lock1.lock();
        try {
            assertFalse(registry2.obtain("foo").tryLock());
            Lock lock3 = registry3.obtain("foo");
            assertTrue(lock3.tryLock(5, TimeUnit.SECONDS), "another prefix is another lock");
            lock3.unlock();
        } finally {
            lock1.unlock();
        }
        assertTrue(REDIS.lockKeys().isEmpty() || REDIS.awaitNoLockKeys().isEmpty());
    }

    /** testExpireNotChanged (adapted: the holder's key is checked by owner value, its TTL moves with the watchdog). */
    @Test
    void aFailedAttemptDoesNotTouchTheHoldersKey() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, Duration.ofSeconds(10));
        RedlockLockRegistry other = new RedlockLockRegistry(two, Duration.ofSeconds(10));
        Lock lock = registry.obtain("foo");
        lock.lock();
        try {
            String owner = REDIS.ownerOn(0, "lock-registry:foo");
            long pttl = Long.parseLong(REDIS.node(0).command("PTTL", RedisNodes.PREFIX + "lock-registry:foo"));
            assertFalse(CompletableFuture.supplyAsync(() -> other.obtain("foo").tryLock()).get(10, TimeUnit.SECONDS));
            assertEquals(owner, REDIS.ownerOn(0, "lock-registry:foo"));
            assertTrue(Long.parseLong(REDIS.node(0).command("PTTL", RedisNodes.PREFIX + "lock-registry:foo")) <= pttl);
        } finally {
            lock.unlock();
        }
    }

    /** multiRedisLockRegistryTest: several registries (processes) lock and unlock the same key concurrently. */
    @Test
    void manyRegistriesTakeTurns() throws Exception {
        List<Redlock> extra = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<RedlockLockRegistry> registries = new ArrayList<>(List.of(new RedlockLockRegistry(one, TTL),
                    new RedlockLockRegistry(two, TTL)));
            for (int i = 0; i < 2; i++) {
                Redlock r = Redlock.create(REDIS.config().build());
                extra.add(r);
                registries.add(new RedlockLockRegistry(r, TTL));
            }
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicInteger done = new AtomicInteger();
            List<Callable<Void>> tasks = new ArrayList<>();
            for (RedlockLockRegistry registry : registries) {
                tasks.add(() -> {
                    for (int i = 0; i < 3; i++) {
                        Lock lock = registry.obtain("testKey");
                        lock.lock();
                        try {
                            if (inside.incrementAndGet() > 1) overlaps.incrementAndGet();
                            Thread.sleep(5);
                            inside.decrementAndGet();
                        } finally {
                            lock.unlock();
                        }
                        done.incrementAndGet();
                    }
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) f.get();
            assertEquals(12, done.get());
            assertEquals(0, overlaps.get(), "two holders at once");
        } finally {
            pool.shutdownNow();
            extra.forEach(Redlock::close);
        }
    }

    /** earlyWakeUpTest: two waiters of other registries; after the unlock exactly one gets it, the other keeps waiting. */
    @Test
    void exactlyOneWaiterWakesUpWithTheLock() throws Exception {
        try (Redlock three = Redlock.create(REDIS.config().build())) {
            Lock lock1 = new RedlockLockRegistry(one, TTL).obtain("testKey");
            Lock lock2 = new RedlockLockRegistry(two, TTL).obtain("testKey");
            Lock lock3 = new RedlockLockRegistry(three, TTL).obtain("testKey");
            AtomicInteger winners = new AtomicInteger();
            CountDownLatch ready = new CountDownLatch(2);
            CountDownLatch finished = new CountDownLatch(2);
            List<Thread> waiters = new ArrayList<>();
            lock1.lock();
            for (Lock waiterLock : List.of(lock2, lock3)) {
                Thread t = new Thread(() -> {
                    ready.countDown();
                    try {
                        if (waiterLock.tryLock(3, TimeUnit.SECONDS)) {
                            winners.incrementAndGet();
                            Thread.sleep(3_500);
                            waiterLock.unlock();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        finished.countDown();
                    }
                });
                waiters.add(t);
                t.start();
            }
            assertTrue(ready.await(10, TimeUnit.SECONDS));
            Thread.sleep(100);
            lock1.unlock();
            assertFalse(finished.await(1, TimeUnit.SECONDS), "the loser keeps waiting, the winner holds");
            assertEquals(1, winners.get());
            for (Thread t : waiters) t.join(15_000);
            assertEquals(1, winners.get(), "the loser's wait ran out while the winner held the lock");
        }
    }

    /** testTwoThreadsRemoveAndObtainSameLockSimultaneously: expireUnused racing obtain still hands out one instance. */
    @Test
    void concurrentExpireAndObtainHandOutOneInstance() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        for (int i = 0; i < 50; i++) {
            String key = "testKey" + i;
            CountDownLatch go = new CountDownLatch(1);
            Callable<DistributedLock> racer = () -> {
                go.await();
                registry.expireUnusedOlderThan(10_000);
                return registry.obtain(key);
            };
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<DistributedLock> a = pool.submit(racer);
                Future<DistributedLock> b = pool.submit(racer);
                go.countDown();
                assertSame(a.get(10, TimeUnit.SECONDS), b.get(10, TimeUnit.SECONDS));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** testLockRenew, testLockRenewLockNotOwned, testLockRenewWithCustomTtl. */
    @Test
    void renewLockResetsTheTtlForTheOwnerOnly() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        assertThrows(IllegalStateException.class, () -> registry.renewLock("foo"), "never obtained");
        registry.obtain("foo");
        assertThrows(IllegalStateException.class, () -> registry.renewLock("foo"), "not held");
        DistributedLock lock = registry.obtain("foo");
        assertTrue(lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(1)));
        try {
            registry.renewLock("foo");
            registry.renewLock("foo", Duration.ofSeconds(20));
            long pttl = Long.parseLong(REDIS.node(0).command("PTTL", RedisNodes.PREFIX + "lock-registry:foo"));
            assertTrue(pttl > 10_000, "renewed to 20 s, pttl " + pttl);
            Throwable fromOther = CompletableFuture.supplyAsync(() -> {
                try {
                    registry.renewLock("foo");
                    return null;
                } catch (IllegalStateException e) {
                    return e;
                }
            }).get(10, TimeUnit.SECONDS);
            assertInstanceOf(IllegalStateException.class, fromOther);
            assertFalse(new RedlockLockRegistry(two, TTL).obtain("foo").tryLock(100, TimeUnit.MILLISECONDS));
        } finally {
            lock.unlock();
        }
    }

    /**
     * testUnlockAfterLockStatusHasBeenExpired, testExceptionOnExpire, testExpireTwoRegistries (adapted: a held lock
     * does not expire while the watchdog reaches a quorum, so the lease is lost by pausing two of three nodes).
     */
    @Test
    void aLostLeaseFailsTheNextReentryAndUnlockWithConcurrentModification() throws Exception {
        try (Redlock fast = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            Duration ttl = Duration.ofMillis(500);
            RedlockLockRegistry registry = new RedlockLockRegistry(fast, ttl);
            DistributedLock lock = registry.obtain("foo");
            assertTrue(lock.tryLock(5, TimeUnit.SECONDS));
            REDIS.node(0).pause();
            REDIS.node(1).pause();
            try {
                Thread.sleep(ttl.toMillis() + 300);
                CannotAcquireLockException reentry = assertThrows(CannotAcquireLockException.class, lock::tryLock);
                assertTrue(reentry.getMessage().startsWith("Failed to lock mutex at foo"), reentry.getMessage());
                ConcurrentModificationException e = assertThrows(ConcurrentModificationException.class, lock::unlock);
                assertTrue(e.getMessage().contains("Lock was released in the store due to expiration."), e.getMessage());
                assertThrows(IllegalStateException.class, lock::unlock, "the hold was given back");
                CannotAcquireLockException down = assertThrows(CannotAcquireLockException.class, lock::lock);
                assertInstanceOf(LockUnavailableException.class, down.getCause(), "no quorum reachable");
            } finally {
                REDIS.node(0).resume();
                REDIS.node(1).resume();
            }
            assertTrue(lock.tryLock(5, TimeUnit.SECONDS), "usable again once the nodes are back");
            lock.unlock();
        }
    }

    /** testUnlockWhenInterruptedBlocksUntilKeyRemoved: an interrupted owner's unlock still removes the key. */
    @Test
    void anInterruptedOwnerStillReleases() throws Exception {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, Duration.ofSeconds(10));
        AtomicBoolean flagKept = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            Lock lock = registry.obtain("test");
            lock.lock();
            try {
                Thread.currentThread().interrupt();
            } finally {
                try {
                    lock.unlock();
                } catch (Throwable e) {
                    failure.set(e);
                }
                flagKept.set(Thread.currentThread().isInterrupted());
            }
        });
        t.start();
        t.join(10_000);
        assertEquals(null, failure.get());
        assertTrue(flagKept.get());
        assertTrue(registry.obtain("test").tryLock(5, TimeUnit.SECONDS), "released, not left until its 10 s TTL");
        registry.obtain("test").unlock();
    }

    @Test
    void conditionsAndBadArgumentsAreRejected() {
        RedlockLockRegistry registry = new RedlockLockRegistry(one, TTL);
        assertThrows(UnsupportedOperationException.class, () -> registry.obtain("foo").newCondition());
        assertThrows(IllegalArgumentException.class, () -> registry.obtain(42));
        IllegalArgumentException ttl = assertThrows(IllegalArgumentException.class,
                () -> new RedlockLockRegistry(one, Duration.ofMillis(1)));
        assertTrue(ttl.getMessage().startsWith("ttl of the lock registry"), ttl.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RedlockLockRegistry(one, TTL, "with space"));
    }
}
