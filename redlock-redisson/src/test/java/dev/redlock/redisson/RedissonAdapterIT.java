package dev.redlock.redisson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LockUnavailableException;
import dev.redlock.NodeOutcome;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.fencing.FencedRedisStore;
import dev.redlock.fencing.FencedValue;
import dev.redlock.fencing.FencedWriteResult;
import dev.redlock.testkit.RedisCluster;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/** What the adapter adds beyond the contract: node errors, wake-ups over Redisson pub/sub, the fenced store. */
class RedissonAdapterIT {
    private static RedisCluster cluster;
    private final TestClients clients = new TestClients();

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start(3);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) cluster.close();
    }

    @AfterEach
    void closeClients() {
        clients.close();
        cluster.flushAll();
    }

    private static RedlockConfig.Builder config() {
        return RedlockConfig.builder().nodes(cluster.uris()).restartQuarantine(Duration.ZERO)
                .nodeTimeout(Duration.ofMillis(500)).retryDelay(Duration.ofMillis(20)).retryJitter(Duration.ofMillis(10));
    }

    @Test
    void aClientCountThatDiffersFromTheNodesIsRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RedissonRedlock.create(config().build(), clients.connect(cluster.uris().subList(0, 2))));
        assertTrue(e.getMessage().startsWith("clients must have one client per node (N=3), got 2"), e.getMessage());
    }

    @Test
    void nodeErrorsAreErrorVotesWithTheirTextAndTheClientsStayOpen() {
        // the resource's fence entry holds a hash: GET answers WRONGTYPE before anything is written
        cluster.node(0).command("HSET", "redlock:__fence:wt", "not", "a-string");
        List<RedissonClient> cs = clients.connect(cluster.uris());
        try (Redlock redlock = RedissonRedlock.create(config().quorum(3).retryCount(0).build(), cs)) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("wt", Duration.ofSeconds(5)));
            assertEquals(NodeOutcome.Kind.ERROR, e.outcomes().get(0).kind(), e.getMessage());
            assertTrue(e.outcomes().get(0).detail().contains("WRONGTYPE"), e.outcomes().get(0).detail());
        }
        assertFalse(cs.get(0).isShutdown(), "Redlock.close() must leave the application's clients open");
        assertTrue(cluster.lockKeys("redlock:").isEmpty(), cluster.lockKeys("redlock:").toString());
    }

    @Test
    void aWaiterIsWokenByTheReleaseOverRedissonPubSub() throws Exception {
        try (Redlock holder = RedissonRedlock.create(config().build(), clients.connect(cluster.uris()));
             Redlock waiter = RedissonRedlock.create(config().retryCount(50).retryDelay(Duration.ofSeconds(20))
                     .retryJitter(Duration.ZERO).build(), clients.connect(cluster.uris()))) {
            Lease held = holder.acquire("wake", Duration.ofSeconds(10));
            CompletableFuture<Lease> waiting = waiter.acquireAsync("wake", Duration.ofSeconds(10));
            Thread.sleep(500);
            assertFalse(waiting.isDone());
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);       // polling alone would take 20 s
            assertTrue(got.fencingToken() > held.fencingToken());
            got.release();
        }
    }

    @Test
    void fencedStoreOverARedissonClient() {
        FencedRedisStore store = RedissonFencedStores.create(clients.connect(cluster.uris().subList(0, 1)).get(0));
        assertEquals(Optional.empty(), store.read("job:1"));
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("job:1", "A", 5).status());
        FencedWriteResult stale = store.write("job:1", "B", 4);
        assertEquals(FencedWriteResult.Status.REJECTED_STALE, stale.status());
        assertEquals(Optional.of(new FencedValue("A", 5)), store.read("job:1"));
        cluster.node(0).command("SCRIPT", "FLUSH");
        assertEquals(FencedWriteResult.Status.APPLIED, store.write("job:1", "C", 6).status(), "NOSCRIPT falls back to EVAL");
        assertEquals(Optional.of(new FencedValue("C", 6)), store.read("job:1"));
    }
}
