package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.election.LeaderElection;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A node with {@code cluster-enabled yes} accepts a script only when all its keys hash to one slot, which the lock's
 * scripts do not: preflight refuses it by name instead of letting every acquire fail with CROSSSLOT.
 */
class ClusterModeIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(2);

    @Test
    void strictPreflightRefusesAClusterEnabledNodeNamingTheSetting() {
        try (RedisNode cluster = RedisNode.builder().args("--cluster-enabled", "yes").start()) {
            RedlockConfig cfg = REDIS.config().nodes(List.of(cluster.uri(), REDIS.uris().get(0), REDIS.uris().get(1)))
                    .preflight(Preflight.STRICT).build();
            RedlockException e = assertThrows(RedlockException.class, () -> {
                try (Redlock r = Redlock.create(cfg)) {
                    r.acquire("slot", Duration.ofSeconds(1)).release();
                }
            });
            assertTrue(e.getMessage().contains("cluster_enabled"), e.getMessage());
            assertTrue(e.getMessage().contains("127.0.0.1:" + cluster.port()), e.getMessage());
        }
    }

    /**
     * With preflight WARN the cluster-enabled nodes are used and every round fails (CROSSSLOT, or CLUSTERDOWN with no
     * slots assigned): an election on them never elects, and says why instead of staying silent.
     */
    @Test
    void anElectionThatCannotWinSaysWhy() {
        List<RedisNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) nodes.add(RedisNode.builder().args("--cluster-enabled", "yes").start());
            RedlockConfig cfg = REDIS.config().nodes(nodes.stream().map(RedisNode::uri).toList())
                    .preflight(Preflight.WARN).build();
            try (Redlock r = Redlock.create(cfg);
                 LeaderElection election = LeaderElection.builder(r, "cron").leaseTtl(Duration.ofSeconds(2)).build()) {
                election.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> election.lastFailure().isPresent());
                RedlockException why = election.lastFailure().orElseThrow();
                assertInstanceOf(LockUnavailableException.class, why);
                assertEquals(3, ((LockUnavailableException) why).count(NodeOutcome.Kind.ERROR), why.getMessage());
                assertFalse(election.isLeader());
            }
        } finally {
            nodes.forEach(RedisNode::close);
        }
    }

    /** A failed one-round attempt says why, with every node's outcome, without an exception to catch. */
    @Test
    void anAttemptOnClusterEnabledNodesTellsWhyItFailed() {
        try (RedisNode cluster = RedisNode.builder().args("--cluster-enabled", "yes").start()) {
            RedlockConfig cfg = REDIS.config().nodes(List.of(cluster.uri(), REDIS.uris().get(0), REDIS.uris().get(1)))
                    .quorum(3).preflight(Preflight.WARN).build();
            try (Redlock r = Redlock.create(cfg)) {
                LockAttempt attempt = r.attempt("slot", Duration.ofSeconds(1));
                assertFalse(attempt.acquired());
                assertTrue(attempt.lease().isEmpty());
                LockUnavailableException why = attempt.failure().orElseThrow();
                assertEquals(NodeOutcome.Kind.ERROR, why.outcomes().get(0).kind(), why.getMessage());
                assertTrue(why.outcomes().get(0).detail().matches("(?s).*(CROSSSLOT|CLUSTERDOWN).*"), why.getMessage());
                LockAttempt ok = r.attempt("slot", Duration.ofSeconds(1));   // still fails: quorum 3 needs the cluster node
                assertFalse(ok.acquired());
            }
            REDIS.forgetMemberships();                            // another node list on these nodes, on purpose
            RedlockConfig two = REDIS.config().nodes(REDIS.uris()).build();
            try (Redlock r = Redlock.create(two)) {
                LockAttempt attempt = r.attempt("plain", Duration.ofSeconds(1));
                assertTrue(attempt.acquired(), attempt.toString());
                assertTrue(attempt.failure().isEmpty());
                attempt.lease().orElseThrow().release();
            }
        }
    }
}
