package dev.redlock.chaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.RedisProcess;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The process family on a real redis-server: SIGSTOP/SIGCONT and kill -9/restart, seen on the node and the proxy. */
class ProcessFaultsIT {
    @Test
    void pauseStopsTheNodeAndKillLosesItsMemoryAndBothHeal() {
        try (OneNode n = new OneNode()) {
            RedisProcess node = n.cluster.node(0);
            node.command("SET", "t:k", "v");
            String runId = node.runId();

            FaultHandle pause = n.nemesis.process().pause(0);
            assertTrue(node.isPaused());
            assertEquals("SocketTimeoutException", n.pingThroughProxy(500), "a stopped node answers nothing");
            pause.close();
            assertFalse(node.isPaused());
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> n.pingThroughProxy(2000).equals("+PONG"));

            FaultHandle kill = n.nemesis.process().kill(0);
            assertFalse(node.isRunning());
            assertNotEquals("+PONG", n.pingThroughProxy(1000), "a killed node answers through its proxy");
            kill.close();
            assertTrue(node.isRunning());
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> n.pingThroughProxy(2000).equals("+PONG"));
            assertNotEquals(runId, node.runId(), "a restart is a new process");
            assertEquals("", node.command("GET", "t:k"), "no persistence: the key is gone (persistence loss)");
            assertEquals(2, n.history.faults().size(), n.history.faults().toString());
        }
    }
}
