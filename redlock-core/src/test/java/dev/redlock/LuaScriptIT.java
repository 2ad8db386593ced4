package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        List<Object> keys = List.of("redlock:k", "redlock:__fences");
        REDIS.node(0).command("SET", "redlock:k", "owner-b", "PX", "60000");
        assertEquals(0, run(LuaScript.WRITE_FENCE, keys, "owner-a", "50", "k"));
        assertEquals("", REDIS.node(0).command("HGET", "redlock:__fences", "k"));
        assertEquals(1, run(LuaScript.WRITE_FENCE, keys, "owner-b", "50", "k"));
        assertEquals(1, run(LuaScript.WRITE_FENCE, keys, "owner-b", "7", "k"));
        assertEquals("50", REDIS.node(0).command("HGET", "redlock:__fences", "k"));
        REDIS.node(0).command("DEL", "redlock:k");
    }

    @Test
    void scriptsSurviveScriptFlush() throws Exception {
        REDIS.node(0).command("SCRIPT", "FLUSH");
        REDIS.node(0).command("SET", "redlock:k", "owner-b", "PX", "60000");
        assertEquals(1, run(LuaScript.RELEASE, List.of("redlock:k"), "owner-b", "chan"), "EVALSHA must fall back to EVAL");
    }
}
