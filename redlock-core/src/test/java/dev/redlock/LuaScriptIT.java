package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each script's own guard, checked directly on a real node: owner checks, fence only rises, NOSCRIPT fallback. */
class LuaScriptIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(1);
    private static Redlock redlock;
    private static NodeClient node;

    @BeforeAll
    static void start() {
        redlock = Redlock.create(REDIS.config().build());
        node = redlock.context().node(0);
    }

    @AfterAll
    static void stop() {
        redlock.close();
    }

    private static long run(LuaScript s, List<Object> keys, Object... args) throws Exception {
        return ((Number) node.eval(s, keys, args).get(5, TimeUnit.SECONDS)).longValue();
    }

    /** ACQUIRE with a TTL of 60 s, no membership; the reply. */
    private static List<?> acquire(List<Object> keys, String quarantine, String guess, String cap) throws Exception {
        return acquire(keys, quarantine, guess, cap, "");
    }

    private static List<?> acquire(List<Object> keys, String quarantine, String guess, String cap, String membership)
            throws Exception {
        Object reply = node.eval(LuaScript.ACQUIRE, keys, "owner-a", "60000", quarantine, guess, cap, "60000",
                membership, "120000").get(5, TimeUnit.SECONDS);
        // the library's transport builds ACQUIRE's reply itself (numbers unboxed), for every outcome
        return assertInstanceOf(AcquireReply.class, reply);
    }

    @Test
    void releaseDeletesOnlyTheOwnersKey() throws Exception {
        REDIS.node(0).command("SET", "redlock:k", "owner-b", "PX", "60000");
        assertEquals(0, run(LuaScript.RELEASE, List.of("redlock:k"), "owner-a", "chan"));
        assertEquals("owner-b", REDIS.ownerOn(0, "k"));
        assertEquals(1, run(LuaScript.RELEASE, List.of("redlock:k"), "owner-b", "chan"));
        assertEquals("", REDIS.ownerOn(0, "k"));
    }

    @Test
    void extendTouchesOnlyTheOwnersKey() throws Exception {
        REDIS.node(0).command("SET", "redlock:k", "owner-b", "PX", "1000");
        List<Object> keys = List.of("redlock:k", "redlock:__node");
        assertEquals(0, run(LuaScript.EXTEND, keys, "owner-a", "60000", "", "0"));
        assertEquals(true, Long.parseLong(REDIS.node(0).command("PTTL", "redlock:k")) <= 1000);
        assertEquals(1, run(LuaScript.EXTEND, keys, "owner-b", "60000", "", "0"));
        assertEquals(true, Long.parseLong(REDIS.node(0).command("PTTL", "redlock:k")) > 1000);
        REDIS.node(0).command("DEL", "redlock:k");
    }

    @Test
    void fenceIsWrittenOnlyByTheHolderAndOnlyRises() throws Exception {
        List<Object> keys = List.of("redlock:k", "redlock:__fence:k", "redlock:__node");
        REDIS.node(0).command("SET", "redlock:k", "owner-b", "PX", "60000");
        assertEquals(0, run(LuaScript.WRITE_FENCE, keys, "owner-a", "50", "60000"));
        assertEquals("", REDIS.node(0).command("GET", "redlock:__fence:k"));
        assertEquals(1, run(LuaScript.WRITE_FENCE, keys, "owner-b", "50", "60000"));
        assertEquals(1, run(LuaScript.WRITE_FENCE, keys, "owner-b", "7", "60000"));
        assertEquals("50", REDIS.node(0).command("GET", "redlock:__fence:k"));
        assertEquals("50", REDIS.node(0).command("HGET", "redlock:__node", "hw"), "every fence write raises hw");
        long pttl = Long.parseLong(REDIS.node(0).command("PTTL", "redlock:__fence:k"));
        assertTrue(pttl > 0 && pttl <= 60000, "the entry has the retention as TTL: " + pttl);
        REDIS.node(0).command("DEL", "redlock:k");
    }

    @Test
    void theMarkerRecordsThisProcessAndMicrosecondNumbersExactly() throws Exception {
        List<Object> keys = List.of("redlock:m", "redlock:__fence:m", "redlock:__node");
        List<?> r = acquire(keys, "0", "0", "100000");
        assertEquals(REDIS.node(0).runId(), REDIS.node(0).command("HGET", "redlock:__node", "run"),
                "the script read INFO server");
        assertEquals(REDIS.node(0).info("replication", "master_replid"),
                REDIS.node(0).command("HGET", "redlock:__node", "rid"), "the script read INFO replication");
        long floor = ((Number) r.get(1)).longValue();
        assertTrue(Long.toString(floor).matches("\\d{16}"), "a new identity's fence reads its clock (us): " + floor);
        long nodeUs = ((Number) r.get(6)).longValue();
        assertTrue(nodeUs >= floor, "the reply carries the node's clock: " + nodeUs);
        // a guess above the floor, within the node's clock plus the cap, is written exactly (no 1.7e+15)
        String guess = Long.toString(floor + 50_000);
        REDIS.node(0).command("DEL", "redlock:m");
        r = acquire(keys, "0", guess, "100000");
        assertEquals(1L, r.get(5), "wrote the guess");
        assertEquals(guess, REDIS.node(0).command("GET", "redlock:__fence:m"));
        assertEquals(guess, REDIS.node(0).command("HGET", "redlock:__node", "hw"));
        REDIS.node(0).command("DEL", "redlock:m");
    }

    /** Guard: a node never writes a guessed token beyond its own clock plus the cap (a client clock stepped ahead). */
    @Test
    void aGuessBeyondTheNodesClockPlusTheCapIsNotWritten() throws Exception {
        List<Object> keys = List.of("redlock:c", "redlock:__fence:c", "redlock:__node");
        long floor = ((Number) acquire(keys, "0", "0", "100000").get(1)).longValue();
        REDIS.node(0).command("DEL", "redlock:c");
        String ahead = Long.toString(floor + 60_000_000L);                    // a client 60 s ahead
        List<?> r = acquire(keys, "0", ahead, "100000");
        assertEquals(1L, r.get(0), "granted");
        assertEquals(0L, r.get(5), "but the guess not written");
        String fence = REDIS.node(0).command("GET", "redlock:__fence:c");
        assertTrue(fence.isEmpty() || Long.parseLong(fence) < Long.parseLong(ahead), fence);
        REDIS.node(0).command("DEL", "redlock:c");
    }

    /**
     * Guard: the marker's replication id is the identity: another history (another process, this one before a
     * promotion) or a marker of the old format is a new identity; the {@code run} field is a record of which process
     * began the memory, not compared (a master's replication id is new after every restart: IdentityIT).
     */
    @Test
    void aMarkerOfAnotherReplicationHistoryOrTheOldFormatIsANewIdentity() throws Exception {
        List<Object> keys = List.of("redlock:o", "redlock:__fence:o", "redlock:__node");
        String run = REDIS.node(0).runId();
        String rid = REDIS.node(0).info("replication", "master_replid");
        for (String[] old : List.of(new String[] {"SET", "redlock:__node", "0"},
                new String[] {"HSET", "redlock:__node", "run", run, "rid", "another-history", "born", "0", "hw", "0", "q", "0"},
                new String[] {"HSET", "redlock:__node", "run", run, "born", "0", "hw", "0", "q", "0"})) {
            REDIS.node(0).command("DEL", "redlock:__node");
            REDIS.node(0).command(old);
            List<?> r = acquire(keys, "5000", "0", "100000");
            assertEquals(2L, r.get(0), "quarantined as a new identity after " + String.join(" ", old));
            assertEquals(5000L, r.get(3));
            assertEquals(run, REDIS.node(0).command("HGET", "redlock:__node", "run"), "the rewritten marker names this process");
            assertEquals(rid, REDIS.node(0).command("HGET", "redlock:__node", "rid"));
        }
        for (String recorded : List.of(run, "a-process-recorded-before")) {
            REDIS.node(0).command("DEL", "redlock:o", "redlock:__node");
            REDIS.node(0).command("HSET", "redlock:__node", "run", recorded, "rid", rid, "born", "0", "hw", "0", "q", "0");
            assertEquals(1L, acquire(keys, "5000", "0", "100000").get(0), "the same replication history: granted");
            assertEquals(recorded, REDIS.node(0).command("HGET", "redlock:__node", "run"), "the same memory: not rewritten");
        }
        REDIS.node(0).command("DEL", "redlock:o", "redlock:__node");
    }

    /**
     * Guard: a node refuses (status 3) a client whose membership shares no node list with a record that still stands,
     * records nothing for it, and accepts one that shares a list (a transition configuration).
     */
    @Test
    void aMembershipThatSharesNoListWithAStandingRecordIsRefusedAndNotRecorded() throws Exception {
        List<Object> keys = List.of("redlock:x", "redlock:__fence:x", "redlock:__node");
        assertEquals(1L, acquire(keys, "0", "0", "100000", "m:old").get(0));
        assertTrue(Long.parseLong(REDIS.node(0).command("HGET", "redlock:__node", "m:old")) > 0, "recorded");
        REDIS.node(0).command("DEL", "redlock:x");
        List<?> r = acquire(keys, "0", "0", "100000", "m:new");
        assertEquals(3L, r.get(0));
        assertEquals("old", r.get(7));
        assertEquals("", REDIS.node(0).command("HGET", "redlock:__node", "m:new"), "nothing recorded for the newcomer");
        assertEquals("", REDIS.node(0).command("GET", "redlock:x"), "not granted");
        assertEquals(1L, acquire(keys, "0", "0", "100000", "m:new+old").get(0), "a transition shares 'old'");
        REDIS.node(0).command("DEL", "redlock:x");
        // a record that no longer stands is dropped, and no longer refuses
        REDIS.node(0).command("HSET", "redlock:__node", "m:old", "1", "m:new+old", "1");
        assertEquals(1L, acquire(keys, "0", "0", "100000", "m:new").get(0));
        assertEquals("0", REDIS.node(0).command("HEXISTS", "redlock:__node", "m:old"));
        REDIS.node(0).command("DEL", "redlock:x", "redlock:__node");
    }

    @Test
    void scriptsSurviveScriptFlush() throws Exception {
        REDIS.node(0).command("SCRIPT", "FLUSH");
        REDIS.node(0).command("SET", "redlock:k", "owner-b", "PX", "60000");
        assertEquals(1, run(LuaScript.RELEASE, List.of("redlock:k"), "owner-b", "chan"), "EVALSHA must fall back to EVAL");
    }
}
