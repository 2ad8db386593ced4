package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertEquals(0, run(LuaScript.EXTEND, List.of("redlock:k"), "owner-a", "60000"));
        assertEquals(true, Long.parseLong(REDIS.node(0).command("PTTL", "redlock:k")) <= 1000);
        assertEquals(1, run(LuaScript.EXTEND, List.of("redlock:k"), "owner-b", "60000"));
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
        List<?> r = (List<?>) node.eval(LuaScript.ACQUIRE, keys, "owner-a", "60000", "0",
                "0", "", "60000").get(5, TimeUnit.SECONDS);
        String runId = REDIS.node(0).runId();
        assertEquals(runId, REDIS.node(0).command("HGET", "redlock:__node", "run"), "the script read INFO server");
        long floor = ((Number) r.get(1)).longValue();
        assertTrue(Long.toString(floor).matches("\\d{16}"), "a new identity's fence reads its clock (us): " + floor);
        // a guess above the floor is written exactly, as given (no 1.7e+15)
        String guess = Long.toString(floor + 123_456_789L);
        REDIS.node(0).command("DEL", "redlock:m");
        node.eval(LuaScript.ACQUIRE, keys, "owner-a", "60000", "0", guess, runId, "60000")
                .get(5, TimeUnit.SECONDS);
        assertEquals(guess, REDIS.node(0).command("GET", "redlock:__fence:m"));
        assertEquals(guess, REDIS.node(0).command("HGET", "redlock:__node", "hw"));
        REDIS.node(0).command("DEL", "redlock:m");
    }

    @Test
    void aMarkerOfAnotherProcessOrTheOldFormatIsANewIdentity() throws Exception {
        List<Object> keys = List.of("redlock:o", "redlock:__fence:o", "redlock:__node");
        for (String[] old : List.of(new String[] {"SET", "redlock:__node", "0"},
                new String[] {"HSET", "redlock:__node", "run", "someone-else", "born", "0", "hw", "0", "q", "0"})) {
            REDIS.node(0).command("DEL", "redlock:__node");
            REDIS.node(0).command(old);
            List<?> r = (List<?>) node.eval(LuaScript.ACQUIRE, keys, "owner-a", "60000",
                    "5000", "0", "", "60000").get(5, TimeUnit.SECONDS);
            assertEquals(2L, r.get(0), "quarantined as a new identity after " + String.join(" ", old));
            assertEquals(5000L, r.get(3));
        }
        REDIS.node(0).command("DEL", "redlock:__node");
    }

    @Test
    void scriptsSurviveScriptFlush() throws Exception {
        REDIS.node(0).command("SCRIPT", "FLUSH");
        REDIS.node(0).command("SET", "redlock:k", "owner-b", "PX", "60000");
        assertEquals(1, run(LuaScript.RELEASE, List.of("redlock:k"), "owner-b", "chan"), "EVALSHA must fall back to EVAL");
    }
}
