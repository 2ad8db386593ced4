package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A failed round leaves work in flight: answers still to come (a grant among them is released when it arrives) and
 * its cleanup releases. {@link Redlock#close()} right after the failure must wait for that work, or it closes a
 * node's connection between a late grant and its release, and the key stays until its TTL.
 *
 * <p>The order is arranged on real nodes: node 0 knows the ACQUIRE script and fails the round at once (its fence
 * entry holds a hash: {@code WRONGTYPE}); nodes 1 and 2 are paused for writes ({@code CLIENT PAUSE ... WRITE}, which
 * holds scripts back) past the node timeout, and know only the RELEASE script: when the pause ends, the round's
 * ACQUIRE is answered {@code NOSCRIPT} and sent again by source, after the cleanup release (sent by SHA when node 0
 * failed the round) already ran. Their grants arrive after the round timed out, while {@code close()} runs.
 */
class CloseAfterFailedRoundIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    @Test
    void closeRightAfterAFailedRoundLeavesNoKey() {
        REDIS.node(0).command("HSET", RedisNodes.PREFIX + "__fence:late", "not", "a-string");
        try {
            for (int i = 0; i < 3; i++) {
                for (int n = 0; n < 3; n++) {
                    REDIS.node(n).command("SCRIPT", "FLUSH");
                    REDIS.node(n).command("SCRIPT", "LOAD", LuaScript.RELEASE.source());
                }
                REDIS.node(0).command("SCRIPT", "LOAD", LuaScript.ACQUIRE.source());
                Redlock redlock = Redlock.create(REDIS.config().quorum(3).retryCount(0).build());
                for (int n = 1; n < 3; n++) REDIS.node(n).command("CLIENT", "PAUSE", "300", "WRITE");
                try {
                    assertThrows(LockUnavailableException.class, () -> redlock.acquire("late", Duration.ofSeconds(20)));
                } finally {
                    redlock.close();
                }
                sleep(400);   // the pause is over: whatever the nodes were sent has run
                for (int n = 1; n < 3; n++) {
                    assertEquals("", REDIS.ownerOn(n, "late"),
                            "iteration " + i + ": node " + n + " still holds the failed round's value after close()");
                }
            }
        } finally {
            REDIS.node(0).command("DEL", RedisNodes.PREFIX + "__fence:late");
            for (int n = 1; n < 3; n++) REDIS.node(n).command("DEL", RedisNodes.PREFIX + "late");
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
