package dev.redlock.compat.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.testkit.RedisCluster;
import io.netty.util.Version;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** A Spring Boot application with the Boot BOM's Netty creates a Redlock and acquires on real nodes. */
class LockingAppIT {

    @Test
    void bootAppAcquiresOnRealNodesWithTheNettyItsBomManages() {
        String netty = Version.identify().get("netty-common").artifactVersion();
        String expected = System.getProperty("expected.netty.line");
        assertTrue(netty.startsWith(expected), "Netty " + netty + " on the class path, expected " + expected + "x");
        try (RedisCluster cluster = RedisCluster.start(3);
             ConfigurableApplicationContext app = new SpringApplicationBuilder(LockingApp.class)
                     .web(WebApplicationType.NONE)
                     .run("--redlock.nodes=" + String.join(",", cluster.uris()))) {
            Redlock redlock = app.getBean(Redlock.class);
            long first;
            try (Lease lease = redlock.acquire("boot", Duration.ofSeconds(5))) {
                first = lease.fencingToken();
                assertTrue(lease.isValid());
            }
            try (Lease lease = redlock.acquire("boot", Duration.ofSeconds(5))) {
                assertTrue(lease.fencingToken() > first);
            }
            assertEquals(0, cluster.lockKeys("redlock:").size(), cluster.lockKeys("redlock:").toString());
        }
    }
}
