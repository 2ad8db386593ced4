package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Ticker;
import dev.redlock.internal.resp.ConnectionCheck;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The per-connection handshake hook (for preflight checks): a node whose connection failed the check answers every
 * lock command with an ERROR vote carrying the check's text, never a grant, until a later reconnect passes it.
 */
class ConnectionCheckIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    /** Fails on node 0 while {@code failing} is set. */
    private static ConnectionCheck failNode0(AtomicBoolean failing, AtomicInteger runs) {
        String node0 = "127.0.0.1:" + REDIS.node(0).port();
        return c -> {
            runs.incrementAndGet();
            if (c.endpoint().endsWith(node0) && failing.get()) {
                return CompletableFuture.failedFuture(new IllegalStateException("preflight: node 0 is not fit ("
                        + c.redisVersion() + ")"));
            }
            return CompletableFuture.completedFuture(null);
        };
    }

    @Test
    void aNodeThatFailedItsCheckVotesErrorWithTheTextUntilAReconnectPasses() {
        AtomicBoolean failing = new AtomicBoolean(true);
        AtomicInteger runs = new AtomicInteger();
        RedlockConfig cfg = REDIS.config().quorum(3).retryCount(0).build();
        try (Redlock redlock = Redlock.create(cfg, Ticker.SYSTEM, failNode0(failing, runs))) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("checked", Duration.ofSeconds(5)));
            NodeOutcome bad = e.outcomes().get(0);
            assertEquals(NodeOutcome.Kind.ERROR, bad.kind(), e.getMessage());
            assertTrue(bad.detail().contains("preflight: node 0 is not fit"), bad.detail());
            assertEquals("", REDIS.ownerOn(0, "checked"), "a node that failed its check never runs a lock command");
            assertTrue(runs.get() >= 3, "the check runs on every node's connection");

            failing.set(false);                          // the next reconnect (backoff, or on use) passes
            Lease lease = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (lease == null && System.nanoTime() < deadline) {
                lease = redlock.tryAcquire("checked", Duration.ofSeconds(5)).orElse(null);
                if (lease == null) Sleep.millis(50);
            }
            assertTrue(lease != null && lease.isValid(), "node 0 never served again after its check passed");
            assertTrue(!REDIS.ownerOn(0, "checked").isEmpty());
            lease.release();
        }
    }

    @Test
    void aFailingCheckOnAMinorityCostsOnlyItsVote() {
        try (Redlock redlock = Redlock.create(REDIS.config().build(), Ticker.SYSTEM,
                failNode0(new AtomicBoolean(true), new AtomicInteger()));
             Lease lease = redlock.acquire("minority", Duration.ofSeconds(5))) {
            assertTrue(lease.isValid());
            assertEquals("", REDIS.ownerOn(0, "minority"));
        }
    }
}
