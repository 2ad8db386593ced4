package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a restart brings back under each persistence mode, and the identity a restart changes. */
class PersistenceTest {
    private final SimScheduler time = new SimScheduler(5);

    private SimNode node(Persistence p) {
        return SimNode.builder(time, "n").persistence(p).build();
    }

    @Test
    void aRestartIsANewProcessANewRunIdAndANewReplicationId() {
        SimNode n = node(Persistence.NONE);
        String run = n.runId();
        String replid = n.replicationId();
        n.command("SET", "k", "v");
        assertThrows(IllegalStateException.class, n::restart);
        n.kill();
        n.restart();
        assertNotEquals(run, n.runId());
        assertNotEquals(replid, n.replicationId());
        assertEquals(List.of(), n.keys(), "no persistence: it comes back empty");
    }

    @Test
    void rdbRestoresTheLastSnapshotAsItWasWhenTaken() {
        SimNode n = node(Persistence.RDB);
        n.command("SET", "a", "1");
        n.command("SAVE");
        n.command("SET", "b", "2");
        n.kill();
        n.restart();
        assertEquals(List.of("a"), n.keys());
        n.command("SET", "c", "3", "PX", "1000");
        n.snapshot();
        n.kill();
        time.runFor(Duration.ofSeconds(2));
        n.restart();
        assertEquals(List.of("a"), n.keys(), "a key whose TTL ran out while the node was down is gone");
    }

    @Test
    void aofEverysecLosesTheUnsyncedSecondOnlyWhenTheMachineDies() {
        SimNode n = node(Persistence.AOF_EVERYSEC);
        n.command("SET", "synced", "1");
        time.runFor(Duration.ofMillis(1000));
        n.command("SET", "written", "1");
        n.kill();
        n.restart();
        assertEquals(List.of("synced", "written"), n.keys(), "a process kill loses nothing written: the OS keeps it");
        time.runFor(Duration.ofMillis(1000));
        n.command("SET", "late", "1");
        time.runFor(Duration.ofMillis(999));
        n.powerLoss();
        n.restart();
        assertEquals(List.of("synced", "written"), n.keys(), "a power loss loses what the last fsync did not cover");
    }

    @Test
    void aofAlwaysLosesNothingAndExpiryIsAbsolute() {
        SimNode n = node(Persistence.AOF_ALWAYS);
        n.command("SET", "k", "v", "PX", "5000");
        n.command("HSET", "h", "f", "1");
        time.runFor(Duration.ofSeconds(2));
        n.powerLoss();
        n.restart();
        assertEquals(3000L, n.command("PTTL", "k"), "the TTL kept running while the node was down");
        assertEquals("1", n.command("HGET", "h", "f"));
    }

    @Test
    void persistenceCanBeSwitchedByConfig() {
        SimNode n = node(Persistence.NONE);
        n.command("SET", "before", "1");
        n.command("CONFIG", "SET", "appendonly", "yes");
        assertEquals(Persistence.AOF_EVERYSEC, n.persistence());
        n.command("CONFIG", "SET", "appendfsync", "always");
        n.command("SET", "after", "1");
        n.powerLoss();
        n.restart();
        assertEquals(List.of("before", "after"), n.keys(), "turning AOF on rewrites it from the data");
        assertEquals(List.of("appendonly", "yes"), n.command("CONFIG", "GET", "appendonly"));
        assertNull(n.command("GET", "missing"));
    }
}
