package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
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
        try (Redlock r = Redlock.create(REDIS.config().retryCount(0).build())) {
            r.markNodesFresh();
            for (int i = 0; i < 5; i++) {
                try (Lease l = r.acquire("evicted", Duration.ofSeconds(1))) {
                    last = l.fencingToken();
                }
            }
        }
        // eviction (volatile-* policies) or expiry takes the fence entries, never the marker (no TTL)
        REDIS.cluster().nodes().forEach(n -> n.keys(RedisNodes.PREFIX + "__fence*").forEach(k -> n.command("DEL", k)));
        try (Redlock other = Redlock.create(REDIS.config().retryCount(0).build());
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
}
