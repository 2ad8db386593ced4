package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.election.LeaderElection;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.RedisProcess;
import dev.redlock.testkit.SwitchingProxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A node's identity is what the script reads from the process running it, every time, and it changes on every event
 * that can lose acknowledged writes: a restart ({@code run_id}) and a promotion or a failback ({@code master_replid}).
 * Two topologies where an identity learned at the connection handshake, or the {@code run_id} alone, is fooled:
 * a failover behind a proxy that keeps its clients' connections, and a failback without any proxy.
 */
class TopologyIdentityIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(2);

    private static final String P = RedisNodes.PREFIX;
    private static final Duration QUARANTINE = Duration.ofSeconds(3);

    /**
     * Node X is a proxy in front of master M with replica R. R copies the marker, is promoted before A acquires (so
     * it lacks A's key, as a lagging replica would), M dies and the proxy moves its open connections to R. B is a
     * long-lived client: its connection to X was handshaken with M. R is a new identity and must be quarantined.
     */
    @Test
    void failoverBehindAProxyThatKeepsConnectionsIsANewIdentity() {
        RedisNode master = RedisNode.start();
        RedisNode replica = RedisNode.start();
        try (SwitchingProxy x = SwitchingProxy.to(master.port())) {
            RedlockConfig cfg = REDIS.config().nodes(List.of(x.uri(), REDIS.uris().get(0), REDIS.uris().get(1)))
                    .restartQuarantine(QUARANTINE).build();
            attach(replica, master);         // before the marker: a first replica changes the master's replication id
            try (Redlock a = Redlock.create(cfg); Redlock b = Redlock.create(cfg)) {
                a.markNodesFresh();
                a.acquire("failover", Duration.ofSeconds(1)).release();        // the marker on M names M
                b.acquire("warm-up", Duration.ofSeconds(1)).release();         // B's connection to X: handshaken with M
                awaitSynced(replica, master);
                replica.command("REPLICAOF", "NO", "ONE");                      // R promoted, without A's later key
                REDIS.node(1).command("SET", P + "failover", "foreign", "PX", "60000");
                Lease held = a.acquire("failover", QUARANTINE);                 // on X (M) and node 0
                REDIS.node(1).command("DEL", P + "failover");
                master.kill();
                x.switchTo(replica.port());                                     // B's connection now reaches R
                Optional<Lease> second = b.tryAcquire("failover", QUARANTINE);
                try {
                    assertTrue(second.isEmpty(), () -> "two holders: A valid=" + held.isValid() + " token "
                            + held.fencingToken() + ", B token " + second.get().fencingToken());
                } finally {
                    second.ifPresent(Lease::release);
                    held.release();
                }
            }
        } finally {
            master.close();
            replica.close();
        }
    }

    /** The same failover with leader elections: a follower behind the proxy must not be elected beside the leader. */
    @Test
    void failoverBehindAProxyThatKeepsConnectionsElectsNoSecondLeader() throws Exception {
        RedisNode master = RedisNode.start();
        RedisNode replica = RedisNode.start();
        try (SwitchingProxy x = SwitchingProxy.to(master.port())) {
            RedlockConfig cfg = REDIS.config().nodes(List.of(x.uri(), REDIS.uris().get(0), REDIS.uris().get(1)))
                    .restartQuarantine(QUARANTINE).build();
            attach(replica, master);
            try (Redlock a = Redlock.create(cfg); Redlock b = Redlock.create(cfg)) {
                a.markNodesFresh();
                a.acquire("cron", Duration.ofSeconds(1)).release();
                b.acquire("warm-up", Duration.ofSeconds(1)).release();          // B's connection: handshaken with M
                awaitSynced(replica, master);
                replica.command("REPLICAOF", "NO", "ONE");
                REDIS.node(1).command("SET", P + "cron", "foreign", "PX", "60000");
                try (LeaderElection leader = LeaderElection.builder(a, "cron").instanceId("a").leaseTtl(QUARANTINE).build()) {
                    leader.start();
                    await().atMost(Duration.ofSeconds(5)).until(leader::isLeader);   // on X (M) and node 0
                    REDIS.node(1).command("DEL", P + "cron");
                    long epoch = leader.currentEpoch().orElseThrow();
                    master.kill();
                    x.switchTo(replica.port());
                    try (LeaderElection follower = LeaderElection.builder(b, "cron").instanceId("b")
                            .leaseTtl(QUARANTINE).renewInterval(Duration.ofMillis(100)).build()) {
                        follower.start();
                        long until = System.nanoTime() + Duration.ofMillis(800).toNanos();
                        while (System.nanoTime() < until) {
                            assertTrue(!(follower.isLeader() && leader.isLeader()), () -> "two leaders: epoch " + epoch
                                    + " and " + follower.currentEpoch());
                            Thread.sleep(5);
                        }
                        assertTrue(follower.lastFailure().isPresent(), "the follower's rounds failed");
                    }
                }
            }
        } finally {
            master.close();
            replica.close();
        }
    }

    /**
     * X has replica Y; Y is promoted while X is cut off; A locks on X and node 0; X is demoted (its full resync
     * replaces A's key with Y's data, whose marker names X's process) and failed back. X's run_id never changed; its
     * replication id did. B must not be granted X while A holds.
     */
    @Test
    void failbackAfterADemotionIsANewIdentity() {
        RedisNode x = RedisNode.start();
        RedisNode y = RedisNode.start();
        try {
            RedlockConfig cfg = REDIS.config().nodes(List.of(x.uri(), REDIS.uris().get(0), REDIS.uris().get(1)))
                    .restartQuarantine(QUARANTINE).build();
            attach(y, x);
            try (Redlock a = Redlock.create(cfg); Redlock b = Redlock.create(cfg)) {
                a.markNodesFresh();
                a.acquire("failback", Duration.ofSeconds(1)).release();
                awaitSynced(y, x);
                y.command("REPLICAOF", "NO", "ONE");                            // Y promoted while X is cut off
                REDIS.node(1).command("SET", P + "failback", "foreign", "PX", "60000");
                Lease held = a.acquire("failback", QUARANTINE);                 // on X and node 0
                REDIS.node(1).command("DEL", P + "failback");
                String run = x.runId();
                attach(x, y);                                                   // X demoted: resync deletes A's key
                awaitSynced(x, y);
                assertEquals("", x.command("GET", P + "failback"), "the resync should have replaced X's data");
                x.command("REPLICAOF", "NO", "ONE");                            // failback
                assertEquals(run, x.runId(), "a failback keeps the process");
                Optional<Lease> second = b.tryAcquire("failback", QUARANTINE);
                try {
                    assertTrue(second.isEmpty(), () -> "two holders: A valid=" + held.isValid() + " token "
                            + held.fencingToken() + ", B token " + second.get().fencingToken());
                } finally {
                    second.ifPresent(Lease::release);
                    held.release();
                }
            }
        } finally {
            x.close();
            y.close();
        }
    }

    /**
     * Makes {@code replica} a replica of {@code master} and waits until its link is up. A master's first replica
     * gives it a new replication id (its backlog starts then): a new identity for the lock, quarantined once.
     */
    static void attach(RedisProcess replica, RedisProcess master) {
        master.command("CONFIG", "SET", "repl-diskless-sync-delay", "0");
        replica.command("REPLICAOF", "127.0.0.1", Integer.toString(master.port()));
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> "up".equals(replica.info("replication", "master_link_status")));
    }

    /** Waits until {@code replica} has everything {@code master} wrote, the marker included. */
    static void awaitSynced(RedisProcess replica, RedisProcess master) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() ->
                replica.info("replication", "master_repl_offset").equals(master.info("replication", "master_repl_offset"))
                        && "1".equals(replica.command("EXISTS", P + "__node")));
    }
}
