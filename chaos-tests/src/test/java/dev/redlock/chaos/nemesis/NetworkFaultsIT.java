package dev.redlock.chaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.cluster.ProxySet;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The network family on a real redis-server behind the proxy: each fault seen through the proxy, then healed. */
class NetworkFaultsIT {
    @Test
    void cutBlackholeAndLatencyAreSeenThroughTheProxyAndHeal() {
        try (OneNode n = new OneNode()) {
            assertEquals("+PONG", n.pingThroughProxy(2000));

            FaultHandle cut = n.nemesis.network().cut(ProxySet.MAIN, 0);
            assertNotEquals("+PONG", n.pingThroughProxy(1000), "a cut node answers through its proxy");
            cut.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> n.pingThroughProxy(2000).equals("+PONG"));

            FaultHandle hole = n.nemesis.network().blackhole(ProxySet.MAIN, 0);
            assertEquals("SocketTimeoutException", n.pingThroughProxy(500), "a black hole answers nothing");
            hole.close();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> n.pingThroughProxy(2000).equals("+PONG"));

            try (FaultHandle slow = n.nemesis.network().latency(ProxySet.MAIN, ToxicDirection.DOWNSTREAM,
                    Duration.ofMillis(400), Duration.ZERO, 0)) {
                long start = System.nanoTime();
                assertEquals("+PONG", n.pingThroughProxy(5000));
                assertTrue(System.nanoTime() - start >= Duration.ofMillis(400).toNanos(), "the latency toxic delays the reply");
            }
            assertEquals(3, n.history.faults().size(), "one window per healed fault: " + n.history.faults());
        }
    }
}
