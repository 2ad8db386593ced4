package dev.redlock.examples.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.examples.lesson.LeaderHeartbeatLesson.AtomicSet;
import dev.redlock.examples.lesson.LeaderHeartbeatLesson.Heartbeats;
import dev.redlock.examples.lesson.LeaderHeartbeatLesson.Observations;
import dev.redlock.examples.lesson.LeaderHeartbeatLesson.SetnxThenExpire;
import dev.redlock.examples.support.ExampleNodes;
import dev.redlock.testkit.RedisNode;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/** Seed 002's observations, on one real redis-server. */
class LeaderHeartbeatLessonIT {
    private static RedisNode node;
    private static RedissonClient client;

    @BeforeAll
    static void start() {
        node = RedisNode.start();
        client = ExampleNodes.redisson(node.uri());
    }

    @AfterAll
    static void stop() {
        try {
            if (client != null) client.shutdown(0, 2, TimeUnit.SECONDS);
        } finally {
            if (node != null) node.close();
        }
    }

    @Test
    void observations() throws Exception {
        Observations o = LeaderHeartbeatLesson.run(client);

        SetnxThenExpire s = o.setnx();
        assertEquals(1, s.setnxReply(), "B won SETNX");
        assertEquals(-1, s.ttlAfterCrash(), "B crashed before EXPIRE: the key has no TTL");
        assertTrue(s.waitedMs() > LeaderHeartbeatLesson.TTL_SECONDS * 1000L);
        assertEquals(0, s.otherSetnxAfterWait(), "past the intended TTL, nobody else can win");
        assertEquals(-1, s.ttlAfterWait(), "still no TTL: stuck forever");
        assertTrue(s.stuckForever());

        AtomicSet a = o.atomic();
        assertEquals("OK", a.setReply());
        assertTrue(a.ttlRightAfter() != -1, "the key has its TTL at once (1 s, or already gone: never -1)");
        assertEquals(0, a.existsAfterWait(), "and expires on its own after the crash");
        assertEquals("OK", a.otherSetAfterWait(), "so another process is elected");
        assertTrue(a.selfHealing());

        Heartbeats h = o.heartbeats();
        assertTrue(h.beats() >= 6, "heartbeats every third of the lease for 4 leases: " + h);
        assertTrue(h.stillLeaderAfterBeats() && h.ledForMs() > 3 * LeaderHeartbeatLesson.LEASE_MS, h.toString());
        assertEquals(0, h.existsAfterStall(), "without heartbeats the lease expires");
        assertEquals("OK", h.newLeaderSetReply());
        assertEquals(0, h.staleBeatReply(), "the old leader's token-checked heartbeat is refused");
        assertTrue(h.newLeaderPttlAfterStaleBeat() <= h.newLeaderPttlBefore(), "and does not extend D's lease: " + h);
        assertEquals(0, h.staleReleaseReply(), "nor can it delete D's key");
        assertTrue(h.newLeaderKept());
        assertTrue(h.tokenCheckedIsSafe());

        // twin: the seed's plain PEXPIRE heartbeat has no token check
        assertEquals(1, h.naiveBeatReply());
        assertTrue(h.newLeaderPttlAfterNaiveBeat() > LeaderHeartbeatLesson.NEXT_LEASE_MS, h.toString());
        assertTrue(h.naiveExtendedSomeoneElses());

        assertEquals(List.of(), node.keys("lesson:*"), "the lesson deletes its keys");
    }
}
