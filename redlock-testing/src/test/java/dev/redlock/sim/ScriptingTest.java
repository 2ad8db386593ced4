package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Scripts;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Redis's scripting layer as the model runs it in LuaJ: conversions, errors, globals, and the library's scripts. */
class ScriptingTest {
    private final SimScheduler time = new SimScheduler(3);
    private final SimNode node = SimNode.create(time, "n1");
    private final SimNode old = SimNode.builder(time, "n62").version("6.2.11").build();

    private Object eval(SimNode n, String script, String... keysThenArgs) {
        String[] a = new String[keysThenArgs.length + 2];
        a[0] = "EVAL";
        a[1] = script;
        System.arraycopy(keysThenArgs, 0, a, 2, keysThenArgs.length);
        return n.command(a);
    }

    private String evalError(SimNode n, String script) {
        return assertThrows(SimRedisException.class, () -> eval(n, script, "0")).getMessage();
    }

    @Test
    void luaValuesBecomeRespAsRedisConvertsThem() {
        assertEquals(java.util.Arrays.asList(1L, 2L, -2L, 1L, null, "a"), eval(node, "return {1, 2.9, -2.9, true, false, 'a', nil, 5}", "0"),
                "false is a nil element; the array stops at the first Lua nil");
        assertEquals(List.of(1L, List.of(2L, "x")), eval(node, "return {1, {2, 'x'}, nil, 5}", "0"));
        assertNull(eval(node, "return false", "0"));
        assertEquals(1L, eval(node, "return true", "0"));
        assertEquals("fine", eval(node, "return {ok='fine'}", "0"));
        assertEquals("fine", eval(node, "return redis.status_reply('fine')", "0"));
        assertEquals("plain", evalError(node, "return {err='plain'}"));
        assertEquals("fenced key k has a malformed fence: x", evalError(node, "return redis.error_reply('fenced key k has a malformed fence: x')"));
        assertEquals(1L, eval(node, "return unpack({1, 2})", "0"));
        assertEquals(List.of(Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, -9223372036854775807L - 1, 9007199254740993L - 1),
                eval(node, "return {2^63, 1e20, -1e20, -2^63, 2^53 + 1}", "0"),
                "out of range converts to LLONG_MIN, as C's cast does on x86-64 (checked on real servers)");
    }

    @Test
    void respRepliesBecomeLuaValuesAsRedisConvertsThem() {
        node.command("HSET", "h", "a", "1");
        assertEquals(List.of("false", "number", "table", "string", "string", "OK", "table"), eval(node,
                "return {tostring(redis.call('GET', 'missing')), type(redis.call('EXISTS', 'h')), type(redis.call('HGETALL', 'h')),"
                        + " type(redis.call('TIME')[1]), redis.call('TYPE', 'h')['ok'] and 'string', redis.call('SET', 'x', 'y')['ok'],"
                        + " type(redis.pcall('GET', 'h'))}", "0"));
        assertEquals(ErrorReply.WRONGTYPE.text(), eval(node, "return redis.pcall('GET', KEYS[1])['err']", "1", "h"));
        assertEquals("1000000000000000", eval(node, "redis.call('SET', 'n', 1e15); return redis.call('GET', 'n')", "0"),
                "a number argument is sent as %.17g");
        assertEquals("3.5", eval(node, "redis.call('SET', 'n', 3.5); return redis.call('GET', 'n')", "0"));
    }

    @Test
    void numbersPrintAsLua51Does() {
        assertEquals("1e+15 1.2345678901234e+14 9.007199254741e+15 0.1 42 99999999999999",
                eval(node, "return tostring(1e15) .. ' ' .. tostring(123456789012345) .. ' ' .. tostring(2^53) .. ' '"
                        + " .. tostring(0.1) .. ' ' .. tostring(42) .. ' ' .. tostring(99999999999999)", "0"));
        assertEquals("1700000000000000|  3.14|0.12|1.000000e+15|ff|  007|x   |0.0001|1e-05",
                eval(node, "return string.format('%.0f|%6.2f|%.2f|%e|%x|%5.3d|%-4s|%g|%g', 1.7e15, 3.14159, 0.125, 1e15,"
                        + " 255, 7, 'x', 0.0001, 0.00001)", "0"));
        assertEquals(LuaFormat.f(2.5, 0), "2", "half to even, on the exact binary value");
    }

    @Test
    void errorsAreWordedAsTheNodesVersionWordsThem() {
        node.command("SET", "s", "x");
        old.command("SET", "s", "x");
        String sha = Scripts.sha1("return redis.call('HGET','s','a')");
        assertEquals("WRONGTYPE Operation against a key holding the wrong kind of value script: " + sha + ", on @user_script:1.",
                evalError(node, "return redis.call('HGET','s','a')"));
        assertEquals("ERR Error running script (call to f_" + sha + "): @user_script:1: WRONGTYPE Operation against a key"
                + " holding the wrong kind of value", evalError(old, "return redis.call('HGET','s','a')"));
        String nope = Scripts.sha1("\n\nreturn redis.call('NOPE')");
        assertEquals("ERR Unknown Redis command called from script script: " + nope + ", on @user_script:3.",
                evalError(node, "\n\nreturn redis.call('NOPE')"));
        assertEquals("ERR Error running script (call to f_" + nope + "): @user_script:3: @user_script: 3: Unknown Redis"
                + " command called from Lua script", evalError(old, "\n\nreturn redis.call('NOPE')"));
        assertTrue(evalError(node, "return redis.call('SUBSCRIBE', 'x')").startsWith("ERR This Redis command is not allowed from script script: "));
        String cmp = Scripts.sha1("\nlocal x = 1\nreturn x < nil");
        assertTrue(evalError(node, "\nlocal x = 1\nreturn x < nil").matches("ERR user_script:3: attempt to compare .* script: " + cmp + ", on @user_script:3\\."));
        assertTrue(evalError(node, "x = 5").startsWith("ERR user_script:1: Attempt to modify a readonly table script: "));
        assertTrue(evalError(node, "return y").startsWith("ERR user_script:1: Script attempted to access nonexistent global variable 'y'"));
        assertTrue(evalError(node, "return syntax error here").startsWith("ERR Error compiling script (new function): user_script:1:"));
        assertEquals("ERR Number of keys can't be greater than number of args",
                assertThrows(SimRedisException.class, () -> node.command("EVAL", "return 1", "2", "a")).getMessage());
    }

    @Test
    void scriptsAreCachedByShaUntilTheProcessRestarts() {
        String sha = (String) node.command("SCRIPT", "LOAD", "return ARGV[1] .. #KEYS");
        assertEquals(Scripts.sha1("return ARGV[1] .. #KEYS"), sha);
        assertEquals(List.of(1L, 0L), node.command("SCRIPT", "EXISTS", sha, "ffff"));
        assertEquals("a2", node.command("EVALSHA", sha, "2", "k1", "k2", "a"));
        assertEquals("b0", node.command("EVALSHA", sha.toUpperCase(), "0", "b"), "KEYS and ARGV are fresh for every call");
        node.kill();
        node.restart();
        assertEquals("NOSCRIPT No matching script. Please use EVAL.",
                assertThrows(SimRedisException.class, () -> node.command("EVALSHA", sha, "0", "c")).getMessage());
    }

    @Test
    void sha1hexAndTimeInsideAScriptAreTheNodes() {
        assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", eval(node, "return redis.sha1hex('abc')", "0"));
        node.clockOffset(Duration.ofSeconds(10));
        assertEquals(Long.toString(NodeClock.DEFAULT_EPOCH_US / 1_000_000 + 10), eval(node, "return redis.call('TIME')[1]", "0"));
    }

    @Test
    void theLibrarysAcquireGrantsRefusesAndQuarantinesOnTheModel() {
        String acquire = LibraryScripts.source("ACQUIRE");
        List<?> granted = (List<?>) eval(node, acquire, "3", "lk", "fence:lk", "__node", "owner-a", "10000", "0", "0", "100000", "600000", "", "120000");
        assertEquals(1L, granted.get(0));
        assertEquals(node.clockMicros(), granted.get(1), "a new identity's fence floor is its clock in microseconds");
        List<?> refused = (List<?>) eval(node, acquire, "3", "lk", "fence:lk", "__node", "owner-b", "10000", "0", "0", "100000", "600000", "", "120000");
        assertEquals(0L, refused.get(0));
        assertEquals(Scripts.sha1("owner-a").substring(0, 12), refused.get(4));
        List<?> marker = (List<?>) node.command("HGETALL", "__node");
        assertEquals(List.of("run", node.runId()), marker.subList(0, 2), "the script read run_id from INFO server");
        node.kill();
        node.restart();
        List<?> quarantined = (List<?>) eval(node, acquire, "3", "lk2", "fence:lk2", "__node", "owner-c", "10000", "5000", "0", "100000", "600000", "", "120000");
        assertEquals(2L, quarantined.get(0), "a new identity waits out the quarantine");
        time.runFor(Duration.ofSeconds(5));
        List<?> after = (List<?>) eval(node, acquire, "3", "lk2", "fence:lk2", "__node", "owner-c", "10000", "5000", "0", "100000", "600000", "", "120000");
        assertEquals(1L, after.get(0));
        String release = LibraryScripts.source("RELEASE");
        assertEquals(1L, eval(node, release, "1", "lk2", "owner-c", "wake"));
        assertEquals(0L, eval(node, release, "1", "lk2", "owner-c", "wake"));
    }

    @Test
    void theFencedStoresWriteScriptRejectsAStaleToken() {
        String write = LibraryScripts.source("FENCED_WRITE");
        assertEquals(List.of(1L, "1748736000000001"), eval(node, write, "1", "fk", "v1", "1748736000000001", "lax"));
        assertEquals(List.of(0L, "1748736000000001"), eval(node, write, "1", "fk", "v0", "999", "lax"));
        node.command("HSET", "bad", "fence", "01");
        assertEquals("fenced key bad has a malformed fence: 01",
                assertThrows(SimRedisException.class, () -> eval(node, write, "1", "bad", "v", "5", "lax")).getMessage());
    }
}
