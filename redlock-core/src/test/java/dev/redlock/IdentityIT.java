package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A node's marker identifies the memory it describes (the replication id of the process that wrote it): a restart
 * that reloads an RDB snapshot, a promoted replica or any other change of process is a new identity, quarantined like
 * a memory loss, with fences that do not go backwards. And the server fact this stands on: a master's replication id
 * is new after every restart.
 */
class IdentityIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final String P = RedisNodes.PREFIX;

    @Test
    void restartFromAnRdbSnapshotIsANewIdentityAndIsQuarantined() {
        RedlockConfig cfg = REDIS.config().restartQuarantine(Duration.ofSeconds(3)).build();
        try (Redlock a = Redlock.create(cfg); Redlock b = Redlock.create(cfg)) {
            a.markNodesFresh();
            for (int i = 0; i < 4; i++) a.acquire("rdb", Duration.ofSeconds(1)).release();
            REDIS.node(0).command("SAVE");                 // the snapshot: marker and fences, no lock key
            REDIS.node(2).command("SET", P + "rdb", "foreign", "PX", "60000");
            for (int i = 0; i < 2; i++) a.acquire("rdb", Duration.ofSeconds(1)).release();
            Lease held = a.acquire("rdb", Duration.ofSeconds(3));   // on nodes 0 and 1 only
            REDIS.node(2).command("DEL", P + "rdb");
            REDIS.node(0).killAndRestart();                // reloads the snapshot: A's key and fences are gone
            Optional<Lease> second = b.tryAcquire("rdb", Duration.ofSeconds(3));
            try {
                assertTrue(second.isEmpty(), () -> "two holders: A valid=" + held.isValid() + " token "
                        + held.fencingToken() + ", B token " + second.get().fencingToken());
            } finally {
                second.ifPresent(Lease::release);
                held.release();
            }
        } finally {
            forgetSnapshot(REDIS.node(0));
        }
    }

    @Test
    void rdbRestartQuarantinesForTheStrictestQuarantineTheNodeStored() {
        RedlockConfig strict = REDIS.config().restartQuarantine(Duration.ofSeconds(5)).build();
        RedlockConfig laxOnNode0 = REDIS.config().nodes(List.of(REDIS.uris().get(0))).quorum(1)
                .restartQuarantine(Duration.ofMillis(300)).retryCount(0).build();
        try (Redlock a = Redlock.create(strict)) {
            a.markNodesFresh();
            a.acquire("strict", Duration.ofSeconds(4)).release();   // every node stores quarantine 5 s
            REDIS.node(0).command("SAVE");
            REDIS.node(0).killAndRestart();
            RedisNodes.forgetMemberships(REDIS.node(0));            // a client of node 0 alone, on purpose
            try (Redlock lax = Redlock.create(laxOnNode0)) {
                // the lax client is the first to talk to the restarted node: its new identity begins now
                assertThrows(LockUnavailableException.class, () -> lax.acquire("strict", Duration.ofMillis(300)));
                Sleep.millis(400);                                // past the lax client's own quarantine
                LockUnavailableException e = assertThrows(LockUnavailableException.class,
                        () -> lax.acquire("strict", Duration.ofMillis(300)));
                assertEquals(NodeOutcome.Kind.REFUSED, e.outcomes().get(0).kind(), e.getMessage());
                assertTrue(e.outcomes().get(0).detail().contains("quarantined"), e.getMessage());
            }
        } finally {
            forgetSnapshot(REDIS.node(0));
        }
    }

    @Test
    void aPromotedReplicaIsANewIdentity() {
        RedisNode replica = RedisNode.start();
        try {
            RedlockConfig cfg = REDIS.config().restartQuarantine(Duration.ofSeconds(3)).build();
            try (Redlock r = Redlock.create(cfg)) {
                r.markNodesFresh();
                r.acquire("promoted", Duration.ofSeconds(1)).release();
            }
            replica.command("REPLICAOF", "127.0.0.1", Integer.toString(REDIS.node(0).port()));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (replica.command("EXISTS", P + "__node").equals("0") && System.nanoTime() < deadline) Sleep.millis(20);
            assertEquals("1", replica.command("EXISTS", P + "__node"), "the marker should have been replicated");
            replica.command("REPLICAOF", "NO", "ONE");      // the failover: the replica is promoted with its data
            RedisNodes.forgetMemberships(replica);            // a client of the replica alone, on purpose
            RedlockConfig one = REDIS.config().nodes(List.of(replica.uri())).quorum(1)
                    .restartQuarantine(Duration.ofSeconds(3)).retryCount(0).build();
            try (Redlock r = Redlock.create(one)) {
                Optional<Lease> lease = r.tryAcquire("promoted", Duration.ofSeconds(1));
                lease.ifPresent(Lease::release);
                assertTrue(lease.isEmpty(), "the promoted replica granted at once: its replicated marker was taken as its own");
            }
        } finally {
            replica.close();
        }
    }

    /**
     * What the identity check stands on, checked on the server under test: a master's replication id is new after
     * every start of its process, whether it reloads an RDB snapshot or replays its AOF, and a replica restarted as a
     * master does not take its old master's id (a server keeps a saved replication id as its own only while it is a
     * replica; Redis 7 keeps a restarted master's previous id as its secondary one, {@code master_replid2}). A server
     * that kept it would let a restarted node's marker pass for the same memory.
     */
    @Test
    void aMastersReplicationIdIsNewAfterEveryRestart() {
        try (RedisNode rdb = RedisNode.start(); RedisNode aof = RedisNode.start(true); RedisNode replica = RedisNode.start()) {
            rdb.command("SET", "k", "rdb");
            rdb.command("SAVE");
            String rdbBefore = replicationId(rdb);
            rdb.killAndRestart();
            assertEquals("rdb", rdb.command("GET", "k"), "the restarted node should have reloaded its snapshot");
            assertNotEquals(rdbBefore, replicationId(rdb), "a master restarted from its RDB snapshot kept its replication id");

            aof.command("SET", "k", "aof");
            String aofBefore = replicationId(aof);
            aof.killAndRestart();
            assertEquals("aof", aof.command("GET", "k"), "the restarted node should have replayed its AOF");
            assertNotEquals(aofBefore, replicationId(aof), "a master restarted from its AOF kept its replication id");

            TopologyIdentityIT.attach(replica, rdb);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .until(() -> "rdb".equals(replica.command("GET", "k")) && replicationId(replica).equals(replicationId(rdb)));
            replica.command("SAVE");                       // its snapshot carries its master's replication id
            replica.killAndRestart();                      // REPLICAOF was set at run time: it comes back a master
            assertEquals("master", replica.info("replication", "role"));
            assertEquals("rdb", replica.command("GET", "k"), "the restarted replica should have reloaded its snapshot");
            assertNotEquals(replicationId(rdb), replicationId(replica),
                    "a replica restarted as a master took its old master's replication id");
        }
    }

    private static String replicationId(RedisNode node) {
        return node.info("replication", "master_replid");
    }

    /** Overwrites the node's dump.rdb with an empty one, so a later restart in this class starts empty. */
    private static void forgetSnapshot(RedisNode node) {
        node.command("FLUSHALL");
        node.command("SAVE");
    }
}
