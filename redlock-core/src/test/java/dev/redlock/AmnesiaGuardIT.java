package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Ports;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Restart safety without fsync: a node that lost its memory does not grant during the quarantine (guard 1), and its
 * fence values never make tokens go backwards (guard 2: the fence floor); brand-new nodes marked fresh are usable at once.
 */
class AmnesiaGuardIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static RedlockConfig guarded(Duration quarantine) {
        return REDIS.config().restartQuarantine(quarantine).retryCount(0).build();
    }

    @Test
    void unmarkedBrandNewNodesAreQuarantinedAndMarkNodesFreshMakesThemUsable() {
        try (Redlock redlock = Redlock.create(guarded(Duration.ofSeconds(30)))) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("fresh", Duration.ofSeconds(5)));
            assertEquals(3, e.count(NodeOutcome.Kind.REFUSED), e.getMessage());
            assertTrue(e.getMessage().contains("quarantined"), e.getMessage());
            assertTrue(e.getMessage().contains("markNodesFresh"), e.getMessage());
            REDIS.cluster().nodes().forEach(n -> n.command("DEL", RedisNodes.PREFIX + "__node"));
            assertEquals(3, redlock.markNodesFresh());
            assertEquals(0, redlock.markNodesFresh(), "already marked nodes are left alone");
            try (Lease lease = redlock.acquire("fresh", Duration.ofSeconds(5))) {
                assertEquals(1, lease.fencingToken(), "fresh nodes start tokens at 1");
            }
        }
    }

    @Test
    void markNodesFreshNamesAnUnreachableNodeAndMarksTheOthers() throws Exception {
        int closedPort = Ports.free();   // nothing listens there
        String unreachable = "redis://127.0.0.1:" + closedPort;
        List<String> nodes = new ArrayList<>(REDIS.uris().subList(0, 2));
        nodes.add(unreachable);
        RedlockConfig cfg = REDIS.config().nodes(nodes).nodeTimeout(Duration.ofMillis(50)).retryCount(0).build();
        try (Redlock redlock = Redlock.create(cfg)) {
            RedlockException e = assertThrows(RedlockException.class, redlock::markNodesFresh);
            assertTrue(e.getMessage().contains(unreachable), e.getMessage());
            assertFalse(e.getMessage().contains(REDIS.uris().get(0) + ":"), e.getMessage());
        }
        for (int i = 0; i < 2; i++) {
            assertEquals("0", REDIS.node(i).command("HGET", RedisNodes.PREFIX + "__node", "born"),
                    "node " + i + " was reached and stays marked fresh");
        }
    }

    @Test
    void restartedNodeRefusesDuringQuarantineThenRejoins() {
        try (Redlock redlock = Redlock.create(guarded(Duration.ofMillis(1500)))) {
            redlock.markNodesFresh();
            redlock.acquire("q", Duration.ofSeconds(1)).release();
            REDIS.node(0).killAndRestart();               // memory gone, no persistence
            REDIS.node(1).command("SET", RedisNodes.PREFIX + "q", "foreign", "PX", "60000");
            // quorum needs node 0 now: it is quarantined
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("q", Duration.ofSeconds(1)));
            assertEquals(NodeOutcome.Kind.REFUSED, e.outcomes().get(0).kind());
            assertTrue(e.outcomes().get(0).detail().startsWith("quarantined"), e.outcomes().get(0).detail());
            Sleep.millis(1600);
            try (Lease lease = redlock.acquire("q", Duration.ofSeconds(1))) {
                assertTrue(lease.isValid(), "after the quarantine the node grants again");
            }
            REDIS.node(1).command("DEL", RedisNodes.PREFIX + "q");
        }
    }

    @Test
    void tokensDoNotGoBackwardsAfterAMemoryLoss() {
        long before;
        try (Redlock redlock = Redlock.create(guarded(Duration.ZERO))) {
            redlock.markNodesFresh();
            // tokens 1..5 are written to nodes 0 and 1 only (node 2 blocked)
            REDIS.node(2).command("SET", RedisNodes.PREFIX + "f", "foreign", "PX", "60000");
            long t = 0;
            for (int i = 0; i < 5; i++) {
                try (Lease l = redlock.acquire("f", Duration.ofSeconds(1))) {
                    t = l.fencingToken();
                }
            }
            before = t;
            REDIS.node(2).command("DEL", RedisNodes.PREFIX + "f");
            REDIS.node(0).killAndRestart();               // node 0 forgets its fences
            REDIS.node(1).command("SET", RedisNodes.PREFIX + "f", "foreign", "PX", "60000");
            // quorum {0, 2}: node 0 forgot, node 2 never saw a fence for "f"
            try (Lease l = redlock.acquire("f", Duration.ofSeconds(1))) {
                assertTrue(l.fencingToken() > before, "token went backwards: " + l.fencingToken() + " after " + before);
            }
            REDIS.node(1).command("DEL", RedisNodes.PREFIX + "f");
        }
    }
}
