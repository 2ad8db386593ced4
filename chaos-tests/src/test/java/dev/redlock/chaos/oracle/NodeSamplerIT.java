package dev.redlock.chaos.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.NodeSample;
import dev.redlock.testkit.RedisProcess;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The ground-truth sampler against a real redis-server: what it reads (the process's run_id too), and what it does while the node is gone. */
class NodeSamplerIT {
    private static final String KEY = "chaos:resource";

    @Test
    void readsTheOwnerValueTtlAndIdentityAndSaysNothingWhileTheNodeIsDown() {
        RedisProcess node = ChaosCluster.plainNode(false);
        History h = new History(1, 1);
        try (NodeSampler sampler = new NodeSampler(i -> node, 1, KEY, h, Duration.ofMillis(5)).start()) {
            await(h, s -> s.answered() && s.value().isEmpty() && s.pttlMs() == -2);
            node.command("SET", KEY, "owner-1", "PX", "5000");
            await(h, s -> s.holds("owner-1") && s.pttlMs() > 0 && s.pttlMs() <= 5000);
            node.command("DEL", KEY);
            long deleted = History.now();
            await(h, s -> s.sentNanos() > deleted && s.lacks("owner-1"));
            node.kill();
            long killed = History.now();
            await(h, s -> s.sentNanos() > killed && !s.answered());
            node.restart();
            long restarted = History.now();
            await(h, s -> s.sentNanos() > restarted && s.answered());
        } finally {
            node.close();
        }
        List<NodeSample> all = h.samples();
        assertTrue(all.stream().allMatch(s -> s.receivedNanos() >= s.sentNanos()), "reply after send");
        List<String> identities = all.stream().filter(NodeSample::answered).map(NodeSample::runId).distinct().toList();
        assertEquals(2, identities.size(), "one identity before the restart, another after: " + identities);
        assertTrue(identities.stream().allMatch(id -> id.matches("[0-9a-f]{40}:[0-9a-f]{40}")), "run_id:master_replid "
                + identities);
        assertTrue(h.samplerErrors().isEmpty(), h.samplerErrors().toString());
    }

    @Test
    void followsTheNodeToTheProcessItFailedOverTo() {
        RedisProcess primary = ChaosCluster.plainNode(false);
        RedisProcess promoted = ChaosCluster.plainNode(false);
        AtomicReference<RedisProcess> serving = new AtomicReference<>(primary);
        History h = new History(1, 1);
        try (NodeSampler sampler = new NodeSampler(i -> serving.get(), 1, KEY, h, Duration.ofMillis(5)).start()) {
            primary.command("SET", KEY, "on-the-old-master", "PX", "5000");
            await(h, s -> s.holds("on-the-old-master"));
            serving.set(promoted);   // the old master is still up and still holds the key: only the switch can tell
            long switched = History.now();
            await(h, s -> s.sentNanos() > switched && s.answered() && s.value().isEmpty());
        } finally {
            primary.close();
            promoted.close();
        }
        assertEquals(2, h.samples().stream().filter(NodeSample::answered).map(NodeSample::runId).distinct().count());
    }

    private static void await(History h, Predicate<NodeSample> seen) {
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> h.samples().stream().anyMatch(seen));
    }
}
