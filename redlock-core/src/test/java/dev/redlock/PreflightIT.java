package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Ticker;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Preflight on real nodes: eviction, replicas, clock offsets, CONFIG refused, and a node that fails later. */
class PreflightIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static RedlockConfig.Builder with(RedisNode odd, Preflight mode) {
        List<String> uris = new ArrayList<>(REDIS.uris().subList(0, 2));
        uris.add(odd.uri());
        return REDIS.config().nodes(uris).preflight(mode);
    }

    @Test
    void strictRefusesANodeThatCanEvictLockKeysNamingItWithoutItsPassword() {
        try (RedisNode evicting = RedisNode.start(false, "--maxmemory", "10mb", "--maxmemory-policy", "volatile-lru",
                "--requirepass", "s3cret")) {
            List<String> uris = new ArrayList<>(REDIS.uris().subList(0, 2));
            uris.add("redis://:s3cret@127.0.0.1:" + evicting.port());
            RedlockException e = assertThrows(RedlockException.class,
                    () -> Redlock.create(REDIS.config().nodes(uris).build()).close());
            assertTrue(e.getMessage().contains("127.0.0.1:" + evicting.port() + " maxmemory-policy=volatile-lru "
                    + "(maxmemory 10.00M) can evict lock keys; set noeviction or use Preflight.WARN"), e.getMessage());
            assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
            for (Preflight lenient : List.of(Preflight.WARN, Preflight.OFF)) {
                try (Redlock r = Redlock.create(REDIS.config().nodes(uris).preflight(lenient).build())) {
                    r.acquire("p", Duration.ofSeconds(1)).release();
                }
            }
        }
    }

    @Test
    void strictRefusesAReplicaAndSaysWhenConfigIsRefused() {
        try (RedisNode replica = RedisNode.start(false, "--rename-command", "CONFIG", "")) {
            replica.command("REPLICAOF", "127.0.0.1", Integer.toString(REDIS.node(0).port()));
            RedlockException e = assertThrows(RedlockException.class, () -> Redlock.create(with(replica, Preflight.STRICT).build()).close());
            assertTrue(e.getMessage().contains("127.0.0.1:" + replica.port() + " role=slave (replica of 127.0.0.1:"
                    + REDIS.node(0).port() + ", replica-read-only unknown: CONFIG GET refused"), e.getMessage());
            try (Redlock r = Redlock.create(with(replica, Preflight.WARN).build())) {
                r.config();   // WARN: logged, created
            }
        }
    }

    @Test
    void strictRefusesAClockTooFarFromThisClients() {
        RedlockConfig cfg = REDIS.config().restartQuarantine(Duration.ofSeconds(2)).build();
        long aheadUs = Duration.ofSeconds(5).toNanos() / 1000;   // this client ahead = every node behind by 5 s
        String expected = "127.0.0.1:" + REDIS.node(0).port() + " clock offset -5.0s from this client's clock "
                + "(tolerated: 900ms";
        String refusal;
        try (Redlock r = Redlock.create(cfg, Ticker.SYSTEM, () -> RedlockContext.systemMicros() + aheadUs)) {
            // created: on a machine too loaded to answer the check in time, the nodes are checked at their first vote
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> r.acquire("clock", Duration.ofSeconds(1)));
            refusal = e.getMessage();
        } catch (RedlockException e) {
            refusal = e.getMessage();
        }
        assertTrue(refusal.contains(expected), refusal);
        Redlock.create(cfg, Ticker.SYSTEM, RedlockContext::systemMicros).close();
    }

    @Test
    void aNodeThatFailsTheCheckWhenItAnswersAgainVotesErrorWithTheReason() {
        RedisNode node = REDIS.node(2);
        try (Redlock r = Redlock.create(REDIS.config().quorum(3).retryCount(2).build())) {
            r.acquire("later", Duration.ofSeconds(1)).release();
            node.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");   // what a restart with a new config
            node.command("CONFIG", "SET", "maxmemory", "100mb");               // file would bring
            node.pause();                                // its vote times out: it is checked before it votes again
            try {
                assertThrows(LockUnavailableException.class, () -> r.acquire("later", Duration.ofSeconds(1)));
            } finally {
                node.resume();
            }
            // the node passed before, so it is re-checked beside its next vote: that vote may still count
            LockUnavailableException e = null;
            for (int i = 0; i < 5 && e == null; i++) {
                try {
                    r.acquire("later", Duration.ofSeconds(1)).release();
                } catch (LockUnavailableException x) {
                    e = x;
                }
            }
            assertTrue(e != null, "node 2 kept voting after its check refused it");
            NodeOutcome o = e.outcomes().get(2);
            assertEquals(NodeOutcome.Kind.ERROR, o.kind(), e.getMessage());
            assertTrue(o.detail().contains("127.0.0.1:" + node.port() + " maxmemory-policy=allkeys-lru (maxmemory "
                    + "100.00M) can evict lock keys"), o.detail());
        } finally {
            node.command("CONFIG", "SET", "maxmemory", "0");
            node.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
    }
}
