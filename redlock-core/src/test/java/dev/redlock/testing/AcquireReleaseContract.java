package dev.redlock.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.LockUnavailableException;
import dev.redlock.NodeOutcome;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Basic acquire/release behaviour, run against N = 1, 3 and 5 nodes by the subclasses. */
public abstract class AcquireReleaseContract {

    protected abstract RedisNodes redis();

    /** The transport under test: the library's own by default; redlock-redisson overrides it. */
    protected Redlock create(RedlockConfig config) {
        return Redlock.create(config);
    }

    @ParameterizedTest
    @EnumSource(AcquireMode.class)
    void acquireThenReleaseLeavesNothing(AcquireMode mode) {
        try (Redlock redlock = create(redis().config().build())) {
            Lease lease = mode.acquire(redlock, "res", Duration.ofSeconds(5));
            assertEquals("res", lease.resource());
            assertTrue(lease.isValid());
            assertTrue(lease.fencingToken() > 0);
            Duration left = lease.remainingValidity();
            assertTrue(left.compareTo(Duration.ofSeconds(5)) < 0 && !left.isZero(), left.toString());
            // the acquire returns at a quorum of grants: the other nodes' grants may still be landing
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            for (int i = 0; i < redis().cluster().size(); i++) {
                while (redis().ownerOn(i, "res").isEmpty() && System.nanoTime() < deadline) Sleep.millis(10);
                assertFalse(redis().ownerOn(i, "res").isEmpty(), "node " + i + " should hold the key");
            }
            lease.close();
            assertFalse(lease.isValid());
            assertEquals(Duration.ZERO, lease.remainingValidity());
            // close() returns once a quorum answered; the other nodes' releases may still be in flight
            assertEquals(List.of(), redis().awaitNoLockKeys());
            lease.close();   // idempotent
            assertThrows(LeaseLostException.class, lease::checkValid);
        }
    }

    @ParameterizedTest
    @EnumSource(AcquireMode.class)
    void heldLockIsRefusedWithPerNodeOutcomes(AcquireMode mode) {
        try (Redlock a = create(redis().config().build());
             Redlock b = create(redis().config().retryCount(1).build());
             Lease held = a.acquire("busy", Duration.ofSeconds(5))) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> mode.acquire(b, "busy", Duration.ofSeconds(5)));
            if (mode != AcquireMode.TRY_ACQUIRE) {
                assertEquals(redis().cluster().size(), e.outcomes().size());
                assertEquals(redis().cluster().size(), e.count(NodeOutcome.Kind.REFUSED), e.getMessage());
                assertEquals(2, e.attempts());
                assertTrue(e.getMessage().contains("held by another owner"), e.getMessage());
            }
            assertTrue(held.isValid());
            // the holder's keys stand: every key on the nodes is the holder's, on at least a quorum of them (the
            // holder's round may have decided before its last grant landed, and a node where the refused
            // client's script got first refused the holder there: a transport need not order two clients)
            String owner = RedlockInternals.ownerValue(held);
            int holding = 0;
            for (int n = 0; n < redis().cluster().size(); n++) {
                String v = redis().ownerOn(n, "busy");
                if (v.isEmpty()) continue;
                assertEquals(owner, v, "node " + n + " holds another owner's value");
                holding++;
            }
            assertTrue(holding >= a.config().quorum(), "the holder's keys stand on " + holding + " nodes");
        }
    }

    @Test
    void releaseAsyncReleasesOnceAndEveryCallGetsTheFirstFuture() throws Exception {
        try (Redlock redlock = create(redis().config().build())) {
            Lease lease = redlock.acquireAsync("async-release", Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS);
            CompletableFuture<Void> first = lease.releaseAsync();
            assertFalse(lease.isValid(), "invalid from the call on");
            assertSame(first, lease.releaseAsync(), "idempotent: one release, one future");
            assertNull(first.get(5, TimeUnit.SECONDS));
            assertEquals(List.of(), redis().awaitNoLockKeys());
            lease.release();   // the blocking form after the async one: nothing more to do
            assertThrows(LeaseLostException.class, lease::checkValid);
            try (Lease next = redlock.acquire("async-release", Duration.ofSeconds(5))) {
                assertTrue(next.fencingToken() > lease.fencingToken());
            }
        }
    }

    @Test
    void successiveHoldersGetIncreasingTokens() {
        try (Redlock redlock = create(redis().config().build())) {
            long last = 0;
            for (int i = 0; i < 10; i++) {
                try (Lease lease = redlock.acquire("seq", Duration.ofSeconds(5))) {
                    assertTrue(lease.fencingToken() > last, lease.fencingToken() + " after " + last);
                    last = lease.fencingToken();
                }
            }
        }
    }

    @Test
    void extendKeepsTheLockAndRecomputesValidity() throws Exception {
        try (Redlock redlock = create(redis().config().build());
             Lease lease = redlock.acquire("ext", Duration.ofMillis(300))) {
            lease.extend(Duration.ofSeconds(5));
            assertTrue(lease.remainingValidity().compareTo(Duration.ofSeconds(4)) > 0, lease.remainingValidity().toString());
            TimeUnit.MILLISECONDS.sleep(500);   // past the first TTL
            assertTrue(lease.isValid());
            long pttl = Long.parseLong(redis().node(0).command("PTTL", RedisNodes.PREFIX + "ext"));
            assertTrue(pttl > 3000, "pttl " + pttl);
        }
    }

    @Test
    void fencingOffIssuesNoToken() {
        try (Redlock redlock = create(redis().config().fencing(false).build());
             Lease lease = redlock.acquire("nofence", Duration.ofSeconds(5))) {
            assertTrue(lease.isValid());
            assertThrows(IllegalStateException.class, lease::fencingToken);
        }
    }

    @Test
    void cancelledAsyncAcquireLeavesNothing() throws Exception {
        try (Redlock redlock = create(redis().config().build())) {
            CompletableFuture<Lease> f = redlock.acquireAsync("cancel", Duration.ofSeconds(5));
            f.cancel(false);
            TimeUnit.MILLISECONDS.sleep(300);
            // the extension's after-each check asserts no lock keys remain
        }
    }

    @Test
    void closeReleasesHeldLeases() {
        Redlock redlock = create(redis().config().build());
        Lease lease = redlock.acquire("closing", Duration.ofSeconds(30));
        redlock.close();
        assertFalse(lease.isValid());
        // as lease.close(), close() returns once a quorum answered; the other nodes' releases may still be in flight
        assertEquals(List.of(), redis().awaitNoLockKeys());
        assertThrows(IllegalStateException.class, () -> redlock.acquire("closing", Duration.ofSeconds(1)));
    }

    @Test
    void badArgumentsAreRejectedByName() {
        try (Redlock redlock = create(redis().config().restartQuarantine(Duration.ofSeconds(10)).build())) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquire("", Duration.ofSeconds(1)))
                    .getMessage().startsWith("resource"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquire("__fences", Duration.ofSeconds(1)))
                    .getMessage().contains("reserved"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquire("x", Duration.ofMillis(2)))
                    .getMessage().startsWith("ttl must be greater than the drift allowance"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquire("x", Duration.ofSeconds(11)))
                    .getMessage().startsWith("ttl must be <= restartQuarantine"));
        }
    }
}
