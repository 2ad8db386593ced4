package dev.redlock.chaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.RedisProcess;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The clock family, simulated mode, on a real redis-server: a jump shortens the lock keys' TTLs, a fast clock gives
 * new lock keys the TTL a fast clock would, and healing stops it. (The libfaketime mode: {@code FaketimeServerIT}.)
 */
class ClockFaultsIT {
    @Test
    void aJumpShortensTtlsAndAFastClockShortensNewKeysUntilHealed() {
        try (OneNode n = new OneNode()) {
            RedisProcess node = n.cluster.node(0);
            node.command("SET", "t:jumped", "a", "PX", "60000");
            node.command("SET", "t:__bookkeeping", "b", "PX", "60000");
            n.nemesis.clock().clockJump(0, Duration.ofSeconds(50)).close();
            assertTrue(pttl(node, "t:jumped") <= 10_000, "the jump cut the lock key's TTL");
            assertTrue(pttl(node, "t:__bookkeeping") > 50_000, "bookkeeping keys are not lock keys");

            try (FaultHandle fast = n.nemesis.clock().fastClock(0, 1.0)) {
                node.command("SET", "t:fast", "c", "PX", "60000");
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pttl(node, "t:fast") <= 30_000);
            }
            node.command("SET", "t:after", "d", "PX", "60000");
            Awaitility.await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                    .until(() -> pttl(node, "t:after") > 30_000);
            assertTrue(n.history.faults().size() == 2, n.history.faults().toString());
        }
    }

    private static long pttl(RedisProcess node, String key) {
        return Long.parseLong(node.command("PTTL", key));
    }
}
