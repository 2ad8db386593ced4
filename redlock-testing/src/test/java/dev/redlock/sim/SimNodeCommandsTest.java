package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The node's keyspace commands and expiry on its own clock. */
class SimNodeCommandsTest {
    private final SimScheduler time = new SimScheduler(1);
    private final SimNode node = SimNode.create(time, "n1");

    private Object c(String... a) {
        return node.command(a);
    }

    private String error(String... a) {
        return assertThrows(SimRedisException.class, () -> node.command(a)).getMessage();
    }

    @Test
    void aKeyExpiresOnTheNodesClockAndIsGoneForEveryCommand() {
        assertEquals("OK", c("SET", "k", "v", "PX", "1000"));
        assertEquals(1000L, c("PTTL", "k"));
        time.runFor(Duration.ofMillis(999));
        assertEquals("v", c("GET", "k"));
        assertEquals(1L, c("PTTL", "k"));
        time.runFor(Duration.ofMillis(1));
        assertNull(c("GET", "k"));
        assertEquals(0L, c("EXISTS", "k"));
        assertEquals(-2L, c("PTTL", "k"));
        assertEquals(new StatusReply("none").text(), c("TYPE", "k"));
        assertEquals(0L, c("DBSIZE"));
        assertEquals("OK", c("SET", "k", "again", "NX"), "an expired key does not block SET NX");
    }

    @Test
    void aFastClockExpiresKeysSoonerAndAStepForwardExpiresThemAtOnce() {
        c("SET", "a", "1", "PX", "1000");
        node.clockRate(2.0);
        time.runFor(Duration.ofMillis(500));
        assertNull(c("GET", "a"), "1000 ms of node time passed in 500 ms of virtual time");
        c("SET", "b", "1", "EX", "60");
        node.clockOffset(Duration.ofSeconds(61));
        assertNull(c("GET", "b"));
        assertEquals(2.0, node.clock().rate());
    }

    @Test
    void timeIsTheNodesClockAndSurvivesRateChangesContinuously() {
        long start = node.clockMicros();
        assertEquals(NodeClock.DEFAULT_EPOCH_US, start);
        time.runFor(Duration.ofSeconds(1));
        node.clockRate(0.5);
        time.runFor(Duration.ofSeconds(2));
        assertEquals(start + 2_000_000, node.clockMicros());
        List<?> t = (List<?>) c("TIME");
        assertEquals(Long.toString((start + 2_000_000) / 1_000_000), t.get(0));
        assertEquals("0", t.get(1));
        node.clockOffset(Duration.ofMillis(-1500));
        assertEquals(start + 500_000, node.clockMicros(), "a step back");
    }

    @Test
    void setOptionsFollowRedis() {
        assertNull(c("SET", "k", "v", "XX"));
        assertEquals("OK", c("SET", "k", "v", "NX", "PX", "5000"));
        assertNull(c("SET", "k", "w", "NX"));
        assertEquals("v", c("SET", "k", "w", "KEEPTTL", "GET"));
        assertEquals(5000L, c("PTTL", "k"));
        assertEquals("w", c("SET", "k", "x", "GET"));
        assertEquals(-1L, c("PTTL", "k"), "SET without KEEPTTL clears the TTL");
        assertEquals("ERR syntax error", error("SET", "k", "v", "NX", "XX"));
        assertEquals("ERR syntax error", error("SET", "k", "v", "KEEPTTL", "PX", "5"));
        assertEquals("ERR value is not an integer or out of range", error("SET", "k", "v", "PX", "x"));
        assertEquals("ERR invalid expire time in 'set' command", error("SET", "k", "v", "PX", "0"));
        assertEquals("ERR invalid expire time in 'set' command", error("SET", "k", "v", "PX", "9223372036854775807"));
        c("HSET", "h", "f", "1");
        assertEquals(ErrorReply.WRONGTYPE.text(), error("SET", "h", "v", "GET"));
        assertEquals("OK", c("SET", "h", "v"), "a plain SET replaces a hash");
    }

    @Test
    void expireCommandsDeleteOnANonPositiveTimeAndTtlRounds() {
        c("SET", "k", "v");
        assertEquals(1L, c("EXPIRE", "k", "10"));
        time.runFor(Duration.ofMillis(4400));
        assertEquals(6L, c("TTL", "k"));
        assertEquals(1L, c("PEXPIRE", "k", "-5"));
        assertEquals(0L, c("EXISTS", "k"));
        assertEquals(0L, c("PEXPIRE", "missing", "100"));
        assertEquals("ERR invalid expire time in 'pexpire' command", error("PEXPIRE", "x", "9223372036854775807"));
    }

    @Test
    void integersAndHashesFollowRedis() {
        assertEquals(1L, c("INCR", "n"));
        c("SET", "n", "9223372036854775807");
        assertEquals("ERR increment or decrement would overflow", error("INCR", "n"));
        for (String bad : List.of("01", " 1", "+1", "1.5", "", "-0")) {
            c("SET", "n", bad);
            assertEquals("ERR value is not an integer or out of range", error("INCR", "n"), bad);
        }
        assertEquals(2L, c("HSET", "h", "a", "1", "b", "2"));
        assertEquals(0L, c("HSET", "h", "a", "3"));
        assertEquals(List.of("a", "3", "b", "2"), c("HGETALL", "h"));
        assertEquals(List.of("3", "2"), c("HMGET", "h", "a", "b"));
        assertEquals(5L, c("HINCRBY", "h", "a", "2"));
        c("HSET", "h", "s", "x");
        assertEquals("ERR hash value is not an integer", error("HINCRBY", "h", "s", "1"));
        assertEquals("ERR wrong number of arguments for 'hset' command", error("HSET", "h", "a", "1", "b"));
        assertEquals(3L, c("HDEL", "h", "a", "b", "s", "zz"));
        assertEquals(0L, c("EXISTS", "h"), "an empty hash is deleted");
        c("SET", "s", "v");
        assertEquals(ErrorReply.WRONGTYPE.text(), error("HGET", "s", "a"));
        assertEquals(ErrorReply.WRONGTYPE.text(), error("HMGET", "s", "a"));
        c("HSET", "h", "a", "1");
        assertEquals(ErrorReply.WRONGTYPE.text(), error("GET", "h"));
        assertEquals(2L, c("DEL", "h", "s", "none"));
    }

    @Test
    void keysAndScanSeeOnlyLiveKeys() {
        c("SET", "lock:a", "1");
        c("SET", "lock:b", "1", "PX", "10");
        c("HSET", "other", "f", "v");
        time.runFor(Duration.ofMillis(10));
        assertEquals(List.of("lock:a"), c("KEYS", "lock:*"));
        assertEquals(List.of("0", List.of("other")), c("SCAN", "0", "TYPE", "hash"));
        assertEquals(List.of("lock:a", "other"), node.keys());
        assertTrue(Glob.matches(org.luaj.vm2.LuaString.valueOf("a[b-c]?\\*"), org.luaj.vm2.LuaString.valueOf("ac1*")));
    }

    @Test
    void peeksReadTheModelWithoutChangingIt() {
        SimNode replica = SimNode.create(time, "r");
        replica.replicaOf(node);
        c("SET", "gone", "1", "PX", "10");
        c("HSET", "h", "b", "2", "a", "1");
        c("SET", "s", "v", "PX", "5000");
        time.runFor(Duration.ofMillis(10));
        long offset = node.replOffset();
        assertNull(node.peek("gone"));
        assertEquals(-2L, node.peekTtlMillis("gone"));
        assertEquals(java.util.Map.of("b", "2", "a", "1"), node.peek("h"));
        assertEquals(List.of("b", "a"), List.copyOf(((java.util.Map<?, ?>) node.peek("h")).keySet()), "in field order");
        assertEquals("v", node.peek("s"));
        assertEquals(4990L, node.peekTtlMillis("s"));
        assertEquals(-1L, node.peekTtlMillis("h"));
        assertEquals(List.of("h", "s"), node.keys());
        assertEquals(offset, node.replOffset(), "nothing was deleted or propagated");
        assertTrue(((String) c("INFO", "stats")).contains("expired_keys:0\r\n"));
        assertNull(c("GET", "gone"), "a command deletes it lazily");
        assertTrue(((String) c("INFO", "stats")).contains("expired_keys:1\r\n"));
    }

    @Test
    void unknownCommandsAndArityErrorsUseTheVersionsWording() {
        assertEquals("ERR unknown command 'FOO', with args beginning with: 'a' ", error("FOO", "a"));
        assertEquals("ERR wrong number of arguments for 'get' command", error("GET"));
        SimNode old = SimNode.builder(time, "old").version("6.2.11").build();
        assertEquals("ERR unknown command `FOO`, with args beginning with: `a`, ",
                assertThrows(SimRedisException.class, () -> old.command("FOO", "a")).getMessage());
        assertEquals("ERR invalid expire time in set", assertThrows(SimRedisException.class,
                () -> old.command("SET", "k", "v", "EX", "0")).getMessage());
    }

    @Test
    void aValkeyNodeSaysSoAndWordsItsErrorsAsValkeyDoes() {
        SimNode valkey = SimNode.builder(time, "v").valkey("8.0.1").build();
        String server = (String) valkey.command("INFO", "server");
        assertTrue(server.contains("redis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n"), server);
        assertEquals("NOSCRIPT No matching script.", assertThrows(SimRedisException.class,
                () -> valkey.command("EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0")).getMessage());
        assertTrue(assertThrows(SimRedisException.class, () -> valkey.command("EVAL", "return redis.call('NOPE')", "0"))
                .getMessage().startsWith("ERR Unknown command called from script script: "));
        assertEquals("ERR unknown subcommand 'Nope'. Try SCRIPT HELP.",
                assertThrows(SimRedisException.class, () -> valkey.command("SCRIPT", "Nope")).getMessage());
        assertEquals(List.of(), old().command("SCRIPT", "EXISTS"), "6.2 answers an empty list");
    }

    private SimNode old() {
        return SimNode.builder(time, "old").version("6.2.11").build();
    }

    @Test
    void infoHasTheFieldsTheLibraryReads() {
        String info = (String) c("INFO");
        for (String f : List.of("redis_version:7.0.15", "run_id:" + node.runId(), "tcp_port:6379", "role:master",
                "master_replid:" + node.replicationId(), "maxmemory_policy:noeviction", "cluster_enabled:0", "aof_enabled:0")) {
            assertTrue(info.contains(f + "\r\n"), f + " in\n" + info);
        }
        String server = (String) c("INFO", "server");
        assertTrue(server.startsWith("# Server\r\n") && !server.contains("# Replication"), server);
        assertEquals("", c("INFO", "nosuchsection"));
        assertEquals(List.of("maxmemory-policy", "noeviction"), c("CONFIG", "GET", "maxmemory-policy"));
        assertEquals("OK", c("CONFIG", "SET", "maxmemory-policy", "volatile-lru"));
        assertTrue(((String) c("INFO", "memory")).contains("maxmemory_policy:volatile-lru\r\n"));
        assertTrue(error("CONFIG", "SET", "maxmemory-policy", "bogus").startsWith("ERR CONFIG SET failed"));
    }

    @Test
    void connectionCommandsAnswerAsAServerWithoutAPassword() {
        assertEquals("PONG", c("PING"));
        assertEquals("OK", c("SELECT", "0"));
        assertTrue(error("AUTH", "x").startsWith("ERR AUTH <password> called without any password"));
        c("CONFIG", "SET", "requirepass", "s3cret");
        assertEquals("OK", c("AUTH", "s3cret"));
        assertEquals("WRONGPASS invalid username-password pair or user is disabled.", error("AUTH", "nope"));
    }

    @Test
    void aPausedNodeAnswersNothingAndADeadOneRefuses() {
        node.pause();
        assertThrows(IllegalStateException.class, () -> c("PING"));
        node.resume();
        assertEquals("PONG", c("PING"));
        node.kill();
        assertThrows(SimConnectionException.class, () -> c("PING"));
        assertThrows(IllegalArgumentException.class, () -> SimNode.builder(time, "a:b"));
    }
}
