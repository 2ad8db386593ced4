package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Ticker;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fence entries are bounded (one key per resource, with a TTL) and losing one (eviction, expiry) never repeats or
 * regresses a token: a missing entry reads the node's high-water mark.
 */
class FenceRetentionIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    @Test
    void lostFenceEntriesWithTheMarkerKeptDoNotRepeatAToken() {
        long last = 0;
        try (Redlock r = Redlock.create(REDIS.config().build())) {
            r.markNodesFresh();
            for (int i = 0; i < 5; i++) {
                try (Lease l = r.acquire("evicted", Duration.ofSeconds(1))) {
                    last = l.fencingToken();
                }
            }
        }
        // eviction (volatile-* policies) or expiry takes the fence entries, never the marker (no TTL)
        REDIS.cluster().nodes().forEach(n -> n.keys(RedisNodes.PREFIX + "__fence*").forEach(k -> n.command("DEL", k)));
        try (Redlock other = Redlock.create(REDIS.config().build());
             Lease l = other.acquire("evicted", Duration.ofSeconds(1))) {
            assertTrue(l.fencingToken() > last, "token " + l.fencingToken() + " after " + last);
        }
    }

    @Test
    void fenceEntriesExpireSoUnusedResourcesDoNotAccumulate() {
        try (Redlock r = Redlock.create(REDIS.config().build())) {
            r.acquire("once", Duration.ofSeconds(1)).release();
        }
        int written = 0;
        for (int i = 0; i < 3; i++) {
            long pttl = Long.parseLong(REDIS.node(i).command("PTTL", RedisNodes.PREFIX + "__fence:once"));
            if (pttl == -2) continue;   // the token is written to the quorum that decided, not necessarily everywhere
            written++;
            assertTrue(pttl > 0 && pttl <= Duration.ofMinutes(10).toMillis(), "node " + i + " fence PTTL " + pttl);
            assertTrue(REDIS.node(i).keys(RedisNodes.PREFIX + "__fences").isEmpty(), "the unbounded hash is gone");
        }
        assertTrue(written >= 2, "the fence is on a quorum: " + written);
    }

    /**
     * The floor of a node that lost its memory is its clock when a fence is read, after the quarantine, not when the
     * memory began: tokens issued just before the loss by a client whose clock runs ahead (within the preflight
     * tolerance) stay below it.
     */
    @Test
    void aRestartedNodesFenceReadsItsClockAfterTheQuarantineNotAtTheRestart() {
        Duration q = Duration.ofSeconds(3);
        long aheadUs = 1_200_000;   // within the tolerance (3 s - 2 x 100 ms) / 2
        for (int i = 0; i < 3; i++) {   // an old identity: not fresh, out of quarantine
            String run = REDIS.node(i).runId();
            String rid = REDIS.node(i).info("replication", "master_replid");
            REDIS.node(i).command("HSET", RedisNodes.PREFIX + "__node", "run", run, "rid", rid, "born",
                    Long.toString(System.currentTimeMillis() - 60_000), "hw", "0", "q", "0");
        }
        RedlockConfig cfg = REDIS.config().restartQuarantine(q).build();
        long issued;
        try (Redlock ahead = Redlock.create(cfg, Ticker.SYSTEM, () -> RedlockContext.systemMicros() + aheadUs)) {
            REDIS.node(2).command("SET", RedisNodes.PREFIX + "skew", "foreign", "PX", "60000");
            ahead.acquire("skew", Duration.ofSeconds(1)).release();
            try (Lease l = ahead.acquire("skew", Duration.ofSeconds(1))) {   // a guess 1.2 s ahead: not written
                issued = l.fencingToken();
            }
            REDIS.node(2).command("DEL", RedisNodes.PREFIX + "skew");
            REDIS.node(1).killAndRestart();                 // the token lived on nodes 0 and 1 only
        }
        try (Redlock touch = Redlock.create(cfg)) {         // node 1's new memory begins now
            touch.tryAcquire("other", Duration.ofSeconds(1)).ifPresent(Lease::release);
        }
        Sleep.millis(q.toMillis() + 100);
        REDIS.node(0).command("SET", RedisNodes.PREFIX + "skew", "foreign", "PX", "60000");
        try (Redlock plain = Redlock.create(cfg); Lease l = plain.acquire("skew", Duration.ofSeconds(1))) {
            assertTrue(l.fencingToken() > issued, "token " + l.fencingToken() + " after " + issued);
        } finally {
            REDIS.node(0).command("DEL", RedisNodes.PREFIX + "skew");
        }
    }
}
