package dev.redlock.chaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.proxy.ToxiproxyServer;
import dev.redlock.testkit.BundledServer;
import dev.redlock.testkit.Ports;
import dev.redlock.testkit.RedisCluster;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code run --nodes ... --toxiproxy URL} against nodes the harness did not start, simulating
 * docker-compose.redlock.yml without Docker: 5 redis-server processes, an "external" Toxiproxy (the in-JVM server,
 * started here) holding pre-existing proxies redis1..redis5 that listen on free ports; the CLI only gets the proxies'
 * listen addresses and the API URL. The nodes run the bundled Redis 7.0.15, not the default server: users' nodes
 * are another line than the embedded default.
 */
@Tag("chaos")
class ExternalNodesCliIT {
    private static RedisCluster redis;
    private static ToxiproxyServer server;
    private static ToxiproxyClient client;
    private static final List<String> uris = new ArrayList<>();

    @BeforeAll
    static void composeLikeSetup() throws IOException {
        try {
            redis = RedisCluster.start(5, BundledServer.REDIS_7_0.path());
            server = ToxiproxyServer.start("127.0.0.1", 0);
            URI api = URI.create(server.url());
            client = new ToxiproxyClient(api.getHost(), api.getPort());
            for (int i = 0; i < 5; i++) {
                int listen = Ports.free();
                client.createProxy("redis" + (i + 1), "127.0.0.1:" + listen, "127.0.0.1:" + redis.node(i).port());
                uris.add("redis://127.0.0.1:" + listen);
            }
            // a toxic the user put there: the harness must leave it alone (it removes only its own)
            client.getProxy("redis5").toxics().latency("user-latency", ToxicDirection.DOWNSTREAM, 0);
        } catch (IOException | RuntimeException e) {
            stopAll();
            throw e;
        }
    }

    @AfterAll
    static void stopAll() {
        try {
            if (server != null) server.close();
        } finally {
            if (redis != null) redis.close();
        }
    }

    @Test
    void runsWhatItCanAgainstExternalNodesAndSkipsTheRest(@TempDir Path dir) throws Exception {
        Run r = run("run", "1", "2", "7", "12", "3", "13", "--nodes", String.join(",", uris), "--toxiproxy", server.url(),
                "--seed", "7", "--report", dir.toString());
        assertEquals(0, r.code, r.all());
        String table = Files.readString(dir.resolve("results.txt"));
        assertTrue(table.contains("4 passed, 0 failed, 2 skipped"), table);
        assertEquals("PASS", status(table, "1 contention"), table);
        assertEquals("PASS", status(table, "2 nodes cut"), table);
        assertEquals("PASS", status(table, "7 client stall"), table);   // a violation expected, and shown
        assertEquals("PASS", status(table, "12 stale release"), table);
        assertEquals("SKIPPED", status(table, "3 amnesia"), table);
        assertEquals("SKIPPED", status(table, "13 paused node"), table);
        assertTrue(table.contains("skipped 3 amnesia: needs process control"), table);
        assertTrue(table.contains("per-client proxies"), table);
        assertTrue(table.contains("skipped 13 paused node: needs process control"), table);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<span class=\"skip\">SKIPPED</span>") && html.contains("not run: needs process control"),
                "skipped scenarios missing from the HTML report");
        assertTrue(html.contains("env --toxiproxy " + server.url()) && html.contains("external nodes 5"),
                "toxiproxy mode missing from the HTML report");
        assertTrue(r.err.contains("-> proxy redis1"), r.err);
        assertEquals("7.0.15", redis.node(0).info("server", "redis_version"));

        // the pre-existing proxies are still there, enabled, with only the user's toxic left
        Map<String, Proxy> proxies = new TreeMap<>();
        for (Proxy p : client.getProxies()) proxies.put(p.getName(), p);
        assertEquals(List.of("redis1", "redis2", "redis3", "redis4", "redis5"), List.copyOf(proxies.keySet()),
                "the harness must neither create nor delete proxies on an external Toxiproxy");
        for (Proxy p : proxies.values()) {
            assertTrue(p.isEnabled(), p.getName() + " left disabled");
            List<String> toxics = p.toxics().getAll().stream().map(Toxic::getName).toList();
            assertEquals(p.getName().equals("redis5") ? List.of("user-latency") : List.of(), toxics, p.getName());
        }
        // and the harness's keys are gone from the nodes
        for (int i = 0; i < 5; i++) assertEquals(List.of(), redis.node(i).keys("chaos:*"), "node " + i);
    }

    @Test
    void aNodeWithoutAProxyFailsFast(@TempDir Path dir) throws Exception {
        int nobody = Ports.free();
        String nodes = String.join(",", uris.subList(0, 4)) + ",redis://127.0.0.1:" + nobody;
        Run r = run("run", "1", "--nodes", nodes, "--toxiproxy", server.url(), "--report", dir.toString());
        assertEquals(2, r.code, r.all());
        assertTrue(r.err.contains("no proxy on Toxiproxy " + server.url() + " listens on port " + nobody
                + " of node redis://127.0.0.1:" + nobody), r.err);
        assertTrue(r.err.contains("proxies found: ") && r.err.contains("redis1 (listen " + uris.get(0).substring(8)), r.err);
        assertTrue(!Files.exists(dir.resolve("results.txt")), "nothing may run");
    }

    @Test
    void externalToxiproxyWithEmbeddedNodes(@TempDir Path dir) throws Exception {
        Run r = run("run", "12", "--toxiproxy", server.url(), "--seed", "42", "--report", dir.toString());
        assertEquals(0, r.code, r.all());
        assertTrue(Files.readString(dir.resolve("results.txt")).contains("1 passed, 0 failed, 0 skipped"));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("toxiproxy env --toxiproxy " + server.url() + " (external server)"),
                "the result must say which Toxiproxy ran");
        // the embedded cluster's own proxies were deleted again; the pre-existing ones untouched
        assertEquals(5, client.getProxies().size());
    }

    private static String status(String table, String scenario) {
        for (String line : table.split("\n")) {
            if (line.startsWith(scenario + " ")) return line.substring(34).trim().split("\\s+")[2];
        }
        throw new AssertionError("no row for " + scenario + " in\n" + table);
    }

    private record Run(int code, String out, String err) {
        String all() {
            return out + "\n--- stderr ---\n" + err;
        }
    }

    private static Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = new CommandLine(new ChaosCli()).execute(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String so = o.toString(StandardCharsets.UTF_8);
        String se = e.toString(StandardCharsets.UTF_8);
        out.print(so);   // keep the output in the surefire report
        err.print(se);
        return new Run(code, so, se);
    }

}
