package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replicas: full sync, the lagging stream, a cut link, promotion, failback, and a master that restarts empty. */
class ReplicationTest {
    private final SimScheduler time = new SimScheduler(9);
    private final SimNetwork net = new SimNetwork(time);
    private final SimNode master = net.attach(SimNode.create(time, "m"));
    private final SimNode replica = net.attach(SimNode.create(time, "r"));

    private String info(SimNode n, String field) {
        for (String l : ((String) n.command("INFO", "replication")).split("\r\n")) {
            if (l.startsWith(field + ":")) return l.substring(field.length() + 1);
        }
        return null;
    }

    @Test
    void aReplicaCopiesTheMasterAndFollowsItWithLag() {
        master.command("SET", "a", "1");
        replica.command("SET", "own", "x");
        replica.replicationLag(Duration.ofMillis(50));
        replica.replicaOf(master);
        assertEquals(List.of("a"), replica.keys(), "a full sync replaces the replica's data");
        assertEquals(master.replicationId(), replica.replicationId());
        assertEquals("slave", info(replica, "role"));
        assertEquals("m", info(replica, "master_host"));
        assertEquals("up", info(replica, "master_link_status"));
        assertEquals("1", info(master, "connected_slaves"));
        master.command("EVAL", "redis.call('SET', 'b', '2', 'PX', '10000'); redis.call('HSET', 'h', 'f', 'v')", "0");
        time.runFor(Duration.ofMillis(49));
        assertNull(replica.command("GET", "b"));
        time.runFor(Duration.ofMillis(1));
        assertEquals("2", replica.command("GET", "b"));
        assertEquals("v", replica.command("HGET", "h", "f"));
        assertEquals(9950L, replica.command("PTTL", "b"), "expiry is absolute: the lag ate into the TTL");
        assertEquals("READONLY You can't write against a read only replica.",
                assertThrows(SimRedisException.class, () -> replica.command("SET", "x", "1")).getMessage());
        assertTrue(assertThrows(SimRedisException.class, () -> replica.command("EVAL", "return redis.call('SET', 'x', '1')", "0"))
                .getMessage().startsWith("READONLY You can't write against a read only replica. script: "));
        assertEquals(List.of("slave", "m", 6379L, "connected", 3L), replica.command("ROLE"));
    }

    @Test
    void aCutLinkHoldsTheStreamAndTheReplicaHidesExpiredKeysUntilTheMasterDeletesThem() {
        replica.replicaOf(master);
        master.command("SET", "k", "v", "PX", "100");
        replica.cutReplicationLink();
        master.command("SET", "later", "1");
        time.runFor(Duration.ofMillis(100));
        assertEquals("down", info(replica, "master_link_status"));
        assertNull(replica.command("GET", "later"));
        assertNull(replica.command("GET", "k"), "expired on the replica's clock: hidden, though not deleted");
        assertTrue(((String) replica.command("INFO", "stats")).contains("expired_keys:0\r\n"), "a replica leaves deletion to its master");
        replica.restoreReplicationLink();
        time.runUntilIdle();
        assertEquals("1", replica.command("GET", "later"));
    }

    @Test
    void promotionKeepsDataAndRunIdWithANewReplicationIdAndFailbackResyncs() {
        replica.replicaOf(master);
        master.command("SET", "a", "1");
        time.runUntilIdle();
        String run = replica.runId();
        String oldId = replica.replicationId();
        replica.command("REPLICAOF", "NO", "ONE");
        assertEquals(run, replica.runId());
        assertNotEquals(oldId, replica.replicationId());
        assertEquals(oldId, info(replica, "master_replid2"));
        assertEquals("master", info(replica, "role"));
        replica.command("SET", "b", "2");
        master.command("SET", "lost", "on the old master");
        master.command("REPLICAOF", "r", "6379");
        assertEquals(List.of("a", "b"), master.keys(), "the demoted master's own writes are gone after the full resync");
        assertEquals(replica.replicationId(), master.replicationId());
        master.promote();
        replica.replicaOf(master);
        assertEquals(List.of("a", "b"), replica.keys());
    }

    @Test
    void aMasterRestartedWithoutPersistenceEmptiesItsReplicas() {
        replica.replicaOf(master);
        master.command("SET", "a", "1");
        time.runUntilIdle();
        master.kill();
        assertEquals("down", info(replica, "master_link_status"));
        assertEquals(List.of("a"), replica.keys(), "a replica keeps its data while the master is down");
        master.restart();
        assertEquals(List.of(), replica.keys(), "the restarted empty master resyncs its replica to empty");
        assertEquals(master.replicationId(), replica.replicationId());
    }
}
