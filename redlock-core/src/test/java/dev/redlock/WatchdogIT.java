package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** withLock's watchdog keeps a lease alive past its TTL, and reports the loss when the nodes are taken away. */
class WatchdogIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    @Test
    void withLockKeepsTheLockPastItsTtl() {
        try (Redlock redlock = Redlock.create(REDIS.config().build()); Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            // TTL 1 s (renewed every ~333 ms, so a loaded machine's scheduling hiccups do not end the lease); 3.5 s of work
            String result = redlock.withLock("long-job", Duration.ofMillis(1000), lease -> {
                for (int i = 0; i < 35; i++) {
                    Sleep.millis(100);
                    lease.checkValid();
                    assertTrue(other.tryAcquire("long-job", Duration.ofMillis(1000)).isEmpty(), "another client got the lock");
                }
                return "done:" + lease.fencingToken();
            });
            assertTrue(result.startsWith("done:"));
        }
    }

    @Test
    void lostLeaseIsSignalledWhenTheNodesAreTakenAway() {
        AtomicReference<Lease> seen = new AtomicReference<>();
        CountDownLatch lost = new CountDownLatch(1);
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            LeaseLostException e = assertThrows(LeaseLostException.class, () -> redlock.withLock("cut", Duration.ofMillis(600), lease -> {
                seen.set(lease);
                lease.onLost(lost::countDown);
                REDIS.node(0).pause();
                REDIS.node(1).pause();
                REDIS.node(2).pause();
                try {
                    assertTrue(lost.await(5, TimeUnit.SECONDS), "onLost did not fire");
                    assertFalse(lease.isValid());
                    assertThrows(LeaseLostException.class, lease::checkValid);
                } finally {
                    REDIS.node(0).resume();
                    REDIS.node(1).resume();
                    REDIS.node(2).resume();
                }
                return "finished without the lock";
            }));
            assertTrue(e.getMessage().contains("watchdog"), e.getMessage());
            assertEquals(Duration.ZERO, seen.get().remainingValidity());
        }
    }

    @Test
    void taskExceptionIsRethrownAndTheLockReleased() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            IOException e = assertThrows(IOException.class, () -> redlock.withLock("boom", Duration.ofSeconds(5), lease -> {
                throw new IOException("disk full");
            }));
            assertEquals("disk full", e.getMessage());
            try (Lease again = redlock.acquire("boom", Duration.ofSeconds(5))) {
                assertTrue(again.isValid(), "the lock was released after the task threw");
            }
        }
    }

    @Test
    void explicitExtendOnACutLeaseThrowsAndMarksItLost() {
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            Lease lease = redlock.acquire("ext-cut", Duration.ofSeconds(5));
            CountDownLatch lost = new CountDownLatch(1);
            lease.onLost(lost::countDown);
            REDIS.node(2).pause();
            REDIS.node(3).pause();
            REDIS.node(4).pause();
            try {
                assertThrows(LeaseLostException.class, () -> lease.extend(Duration.ofSeconds(5)));
                assertFalse(lease.isValid());
                assertTrue(lost.await(5, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                REDIS.node(2).resume();
                REDIS.node(3).resume();
                REDIS.node(4).resume();
            }
            lease.release();
        }
    }
}
