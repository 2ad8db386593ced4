package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Eviction: the explicit hook, the policies under a memory limit, and OOM refusals. */
class EvictionTest {
    private final SimScheduler time = new SimScheduler(11);
    private final SimNode node = SimNode.create(time, "n");

    @Test
    void theHookEvictsAKeyAndReplicasSeeTheDeletion() {
        SimNode replica = SimNode.create(time, "r");
        replica.replicaOf(node);
        node.command("SET", "lock", "owner", "PX", "10000");
        time.runUntilIdle();
        assertTrue(node.evict("lock"));
        assertFalse(node.evict("lock"));
        time.runUntilIdle();
        assertEquals(List.of(), replica.keys());
        assertTrue(((String) node.command("INFO", "stats")).contains("evicted_keys:1\r\n"));
    }

    @Test
    void volatileLruEvictsTheLeastRecentlyUsedKeyWithATtlAndNeverAKeyWithout() {
        node.command("SET", "persistent", "x".repeat(100));
        node.command("SET", "old", "1", "EX", "100");
        node.command("SET", "new", "1", "EX", "100");
        node.command("GET", "old");
        long used = Dataset.BASE_MEMORY + node.data().keyspace().bytes();
        node.maxmemory(used - 1, "volatile-lru");
        node.command("SET", "more", "1", "EX", "100");  // as in Redis: evicts before the command runs
        assertEquals(List.of("persistent", "old", "more"), node.keys(), "'new' was used least recently");
        node.maxmemory(1, "volatile-lru");
        assertEquals("OOM command not allowed when used memory > 'maxmemory'.",
                assertThrows(SimRedisException.class, () -> node.command("SET", "x", "1")).getMessage());
        assertEquals(List.of("persistent"), node.keys(), "every volatile key went before the refusal");
        assertEquals("x".repeat(100), node.command("GET", "persistent"), "reads still work");
    }

    @Test
    void noevictionRefusesAScriptsFirstWriteButNotOneAfterIt() {
        node.command("CONFIG", "SET", "maxmemory", "1");
        assertTrue(assertThrows(SimRedisException.class,
                () -> node.command("EVAL", "return redis.call('SET', 'a', '1')", "0")).getMessage().startsWith("OOM command not allowed"));
        node.maxmemory(0, "noeviction");
        node.command("SET", "big", "1");
        node.maxmemory(1, "noeviction");
        assertEquals(1L, node.command("EVAL", "redis.call('DEL', 'big'); redis.call('SET', 'a', '1'); return 1", "0"),
                "after a first write, the script may go on: a script is never half applied for OOM");
        assertEquals(List.of("maxmemory", "1"), node.command("CONFIG", "GET", "maxmemory"));
        assertThrows(IllegalArgumentException.class, () -> node.maxmemory(1, "sometimes"));
        time.runFor(Duration.ofMillis(1));
    }
}
