package dev.redlock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContendingClientsDemoIT {

    @Test
    void everyClientHoldsInTurnWithIncreasingTokensAndNoOverlap() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(5)) {
            RedlockConfig config = RedlockConfig.builder().nodes(cluster.uris())
                    .retryCount(200).retryDelay(Duration.ofMillis(10)).retryJitter(Duration.ofMillis(10)).build();
            try (Redlock admin = Redlock.create(config)) {
                assertEquals(5, admin.markNodesFresh());
            }
            List<ContendingClientsDemo.Hold> holds = ContendingClientsDemo.run(config, 3, 4);
            assertEquals(12, holds.size());
            assertEquals(1, holds.get(0).token(), "fresh nodes start at token 1");
            for (int i = 1; i < holds.size(); i++) {
                assertTrue(holds.get(i).fromNanos() >= holds.get(i - 1).toNanos(), "holds overlap at " + i);
                assertTrue(holds.get(i).token() > holds.get(i - 1).token(), "tokens must strictly increase");
            }
            assertTrue(cluster.lockKeys("redlock:").isEmpty(), cluster.lockKeys("redlock:").toString());
        }
    }
}
