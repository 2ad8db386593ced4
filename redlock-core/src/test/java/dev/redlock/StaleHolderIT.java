package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.FakeTicker;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A holder whose lease expired cannot release or extend the next holder's keys (guard: token-checked scripts). */
class StaleHolderIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    @Test
    void staleReleaseDoesNotTouchTheNewHolder() {
        try (Redlock a = Redlock.create(REDIS.config().build()); Redlock b = Redlock.create(REDIS.config().build())) {
            Lease stale = a.acquire("r", Duration.ofMillis(150));
            Sleep.millis(300);                       // A's keys expire
            Lease fresh = b.acquire("r", Duration.ofSeconds(10));
            String owner = REDIS.ownerOn(0, "r");
            stale.release();                             // must not delete B's keys
            for (int i = 0; i < 5; i++) assertEquals(owner, REDIS.ownerOn(i, "r"), "node " + i);
            assertTrue(fresh.isValid());
            fresh.release();
        }
    }

    @Test
    void staleExtendFailsAndDoesNotTouchTheNewHolder() {
        // A's clock stands still (a paused process): A still believes its lease valid after its keys expired,
        // so only the token check on the nodes stands between A's extend and B's keys.
        FakeTicker frozen = new FakeTicker();
        try (Redlock a = Redlock.create(REDIS.config().build(), frozen); Redlock b = Redlock.create(REDIS.config().build())) {
            Lease stale = a.acquire("x", Duration.ofMillis(150));
            Sleep.millis(300);
            assertTrue(stale.isValid(), "A's frozen clock says the lease is still valid");
            try (Lease fresh = b.acquire("x", Duration.ofSeconds(2))) {
                assertThrows(LeaseLostException.class, () -> stale.extend(Duration.ofSeconds(60)));
                assertFalse(stale.isValid());
                for (int i = 0; i < 5; i++) {
                    long pttl = Long.parseLong(REDIS.node(i).command("PTTL", RedisNodes.PREFIX + "x"));
                    assertTrue(pttl <= 2000, "node " + i + " pttl " + pttl + ": the stale extend re-set B's TTL");
                }
                assertTrue(fresh.fencingToken() > stale.fencingToken());
            }
        }
    }

    @Test
    void expiredLeaseIsReportedLostAndListenersRun() throws Exception {
        try (Redlock a = Redlock.create(REDIS.config().build())) {
            Lease lease = a.acquire("expire", Duration.ofMillis(200));
            CountDownLatch lost = new CountDownLatch(1);
            lease.onLost(lost::countDown);
            assertTrue(lost.await(5, TimeUnit.SECONDS));
            assertFalse(lease.isValid());
            assertEquals(Duration.ZERO, lease.remainingValidity());
            LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
            assertTrue(e.getMessage().contains("validity ran out"), e.getMessage());
            CountDownLatch late = new CountDownLatch(1);
            lease.onLost(late::countDown);               // registered after the loss: runs at once
            assertTrue(late.await(5, TimeUnit.SECONDS));
            lease.release();
        }
    }
}
