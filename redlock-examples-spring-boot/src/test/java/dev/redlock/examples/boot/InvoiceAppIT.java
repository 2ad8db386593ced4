package dev.redlock.examples.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.RedisCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The example application on three real nodes: fenced payments, the ShedLock job, health and meters over HTTP. */
class InvoiceAppIT {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> send(ConfigurableApplicationContext app, String method, String path) throws Exception {
        String port = app.getEnvironment().getProperty("local.server.port");
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long token(String json) {
        Matcher m = Pattern.compile("\"token\":(\\d+)").matcher(json);
        assertTrue(m.find(), json);
        return Long.parseLong(m.group(1));
    }

    @Test
    void paysUnderTheLockRunsTheJobAndReportsHealthAndMeters() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(3);
             ConfigurableApplicationContext app = new SpringApplicationBuilder(InvoiceApp.class).run(
                     "--server.port=0", "--server.address=127.0.0.1",
                     "--redlock.nodes=" + String.join(",", cluster.uris()),
                     "--redlock.restart-quarantine=0")) {                 // throw-away test nodes, never restarted
            HttpResponse<String> first = send(app, "POST", "/invoices/42/pay");
            assertEquals(200, first.statusCode(), first.body());
            assertTrue(first.body().contains("\"applied\":true"), first.body());
            HttpResponse<String> second = send(app, "POST", "/invoices/42/pay");
            assertTrue(token(second.body()) > token(first.body()), "a later holder has a greater token");

            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            String report = send(app, "GET", "/report").body();
            while (report.contains("\"runs\":0") && System.nanoTime() < deadline) {
                Thread.sleep(100);
                report = send(app, "GET", "/report").body();
            }
            assertTrue(report.contains("with token"), "the ShedLock job ran: " + report);

            HttpResponse<String> health = send(app, "GET", "/actuator/health/redlock");
            assertEquals(200, health.statusCode(), health.body());
            assertTrue(health.body().contains("\"nodesUp\":3") && health.body().contains("\"status\":\"UP\""), health.body());

            String prometheus = send(app, "GET", "/actuator/prometheus").body();
            assertTrue(prometheus.contains("redlock_acquire_seconds_count{error=\"none\",mode=\"blocking\",outcome=\"acquired\"}"), prometheus);
            assertTrue(prometheus.contains("redlock_node_requests_seconds_count{node=\"127.0.0.1:" + cluster.node(0).port()
                    + "\",operation=\"acquire\",result=\"granted\"}"), prometheus);
            assertTrue(prometheus.contains("redlock_lease_active"), prometheus);
            System.out.println("redlock meters from this run (Prometheus format):");
            prometheus.lines().filter(l -> l.startsWith("redlock_")).forEach(System.out::println);
        }
    }
}
