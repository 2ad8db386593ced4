package dev.redlock.compat.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.testkit.RedisCluster;
import io.netty.util.Version;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application of this Boot line, with its BOM's versions, starts on the starter, locks on real nodes, and
 * reports the redlock health (UP, then DOWN without a quorum) and the meters over HTTP.
 */
class LockingAppIT {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
        String port = app.getEnvironment().getProperty("local.server.port");
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void startsLocksAndReportsHealthAndMetersOverHttp() throws Exception {
        String netty = Version.identify().get("netty-common").artifactVersion();
        String expected = System.getProperty("expected.netty.line");
        assertTrue(netty.startsWith(expected), "Netty " + netty + " on the class path, expected " + expected + "x");
        try (RedisCluster cluster = RedisCluster.start(3);
             ConfigurableApplicationContext app = new SpringApplicationBuilder(LockingApp.class).run(
                     "--server.port=0", "--server.address=127.0.0.1",
                     "--redlock.nodes=" + String.join(",", cluster.uris()),
                     "--redlock.restart-quarantine=0",                    // throw-away test nodes, never restarted
                     "--redlock.node-timeout=250ms",
                     "--redlock.health.timeout=500ms",
                     "--management.endpoints.web.exposure.include=health,metrics",
                     "--management.endpoint.health.show-details=always")) {
            Redlock redlock = app.getBean(Redlock.class);
            long first;
            try (Lease lease = redlock.acquire("boot", Duration.ofSeconds(5))) {
                first = lease.fencingToken();
                assertTrue(lease.isValid());
            }
            try (Lease lease = redlock.acquire("boot", Duration.ofSeconds(5))) {
                assertTrue(lease.fencingToken() > first);
            }

            HttpResponse<String> health = get(app, "/actuator/health/redlock");
            assertEquals(200, health.statusCode(), health.body());
            assertTrue(health.body().contains("\"status\":\"UP\""), health.body());
            for (var node : cluster.nodes()) {
                assertTrue(health.body().contains("\"127.0.0.1:" + node.port() + "\":{\"status\":\"UP\""), health.body());
            }
            HttpResponse<String> acquires = get(app, "/actuator/metrics/redlock.acquire?tag=outcome:acquired");
            assertEquals(200, acquires.statusCode(), acquires.body());
            assertTrue(acquires.body().contains("{\"statistic\":\"COUNT\",\"value\":2.0}"), acquires.body());

            cluster.node(0).pause();
            cluster.node(1).pause();
            try {
                HttpResponse<String> down = get(app, "/actuator/health/redlock");
                assertEquals(503, down.statusCode(), down.body());
                assertTrue(down.body().contains("\"status\":\"DOWN\""), down.body());
                assertTrue(down.body().contains("no answer within 500ms"), down.body());
            } finally {
                cluster.node(0).resume();
                cluster.node(1).resume();
            }
            assertEquals(0, cluster.lockKeys("redlock:").size(), cluster.lockKeys("redlock:").toString());
        }
    }
}
