package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A round that gets only a minority of grants must release the grants it got (guard: release-on-failure), and a
 * grant that arrives after the round failed must be released too (guard: late-grant release).
 */
class QuorumFailureIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    @Test
    void partialGrantsAreReleasedWhenQuorumFails() {
        // three nodes hold a foreign owner: at most two can grant, so the round fails
        for (int i = 0; i < 3; i++) REDIS.node(i).command("SET", RedisNodes.PREFIX + "partial", "foreign", "PX", "60000");
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(2).build())) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("partial", Duration.ofSeconds(30)));
            assertEquals(3, e.attempts());
            assertEquals(3, e.count(NodeOutcome.Kind.REFUSED), e.getMessage());
            assertEquals(2, e.count(NodeOutcome.Kind.GRANTED), e.getMessage());
        }
        // the two nodes that granted were released; the foreign values were not touched
        assertEquals("", REDIS.ownerOn(3, "partial"));
        assertEquals("", REDIS.ownerOn(4, "partial"));
        for (int i = 0; i < 3; i++) assertEquals("foreign", REDIS.ownerOn(i, "partial"));
        for (int i = 0; i < 3; i++) REDIS.node(i).command("DEL", RedisNodes.PREFIX + "partial");
    }

    @Test
    void lateGrantAfterAFailedRoundIsReleased() {
        // N=5, quorum 3: two foreign values + one stalled node => at most 2 on-time grants, the round fails on the
        // stalled node's timeout; when that node wakes up it executes our SET and its grant arrives late.
        REDIS.node(0).command("SET", RedisNodes.PREFIX + "late", "foreign", "PX", "60000");
        REDIS.node(1).command("SET", RedisNodes.PREFIX + "late", "foreign", "PX", "60000");
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(0).nodeTimeout(Duration.ofMillis(200)).build())) {
            redlock.acquire("late-warmup", Duration.ofSeconds(30)).release(); // connections and scripts are ready
            long scriptsBefore = scriptCalls(4);
            REDIS.node(4).pause();
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("late", Duration.ofSeconds(30)));
            assertEquals(1, e.count(NodeOutcome.Kind.TIMEOUT), e.getMessage());
            REDIS.node(4).resume();
            // our GET may be served before the queued SET: wait until node 4 ran the late SET and a release after it
            await("node 4 ran the late SET and a release").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> scriptCalls(4) >= scriptsBefore + 2);
            await("the late grant on node 4 is released").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> REDIS.ownerOn(4, "late").isEmpty());
        } finally {
            REDIS.node(4).resume();
        }
        REDIS.node(0).command("DEL", RedisNodes.PREFIX + "late");
        REDIS.node(1).command("DEL", RedisNodes.PREFIX + "late");
    }

    /** EVAL + EVALSHA calls node i has executed (INFO commandstats). */
    private static long scriptCalls(int i) {
        long calls = 0;
        for (String line : REDIS.node(i).command("INFO", "commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:")) {
                String v = line.substring(line.indexOf("calls=") + 6);
                calls += Long.parseLong(v.substring(0, v.indexOf(',')));
            }
        }
        return calls;
    }

    @Test
    void outcomesNameEveryNodeInOrder() {
        for (int i = 0; i < 3; i++) REDIS.node(i).command("SET", RedisNodes.PREFIX + "order", "foreign", "PX", "60000");
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(0).build())) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("order", Duration.ofSeconds(30)));
            List<String> nodes = e.outcomes().stream().map(NodeOutcome::node).toList();
            assertEquals(REDIS.uris(), nodes);
            assertTrue(e.outcomes().stream().allMatch(o -> o.elapsed().compareTo(Duration.ofSeconds(5)) < 0));
        }
        for (int i = 0; i < 3; i++) REDIS.node(i).command("DEL", RedisNodes.PREFIX + "order");
    }
}
