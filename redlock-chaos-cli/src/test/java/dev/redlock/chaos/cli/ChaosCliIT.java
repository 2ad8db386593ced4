package dev.redlock.chaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.Ports;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI's contract: exit codes, argument errors, the report files, and the toxiproxy-server subcommand. */
class ChaosCliIT {

    private static int run(String... args) {
        return new CommandLine(new ChaosCli()).execute(args);
    }

    @Test
    void listAndHelpSucceed() {
        assertEquals(0, run("list"));
        assertEquals(0, run("run", "--help"));
    }

    @Test
    void badArgumentsExitWith2() {
        assertEquals(2, run("run", "99"));
        assertEquals(2, run("run", "1", "--quorum", "2"));
        assertEquals(2, run("run", "1", "--ttl", "soon"));
        assertEquals(2, run("run", "1", "--nodes", "redis://127.0.0.1:1"));
        assertEquals(2, run("run", "1", "--server", "/no/such/redis-server"));
        assertEquals(2, run("run", "1", "--server", "embedded-7.0", "--nodes", "redis://127.0.0.1:1",
                "--toxiproxy", "http://127.0.0.1:1"), "--server is for embedded nodes");
    }

    @Test
    @Tag("chaos")
    void runWritesTheTableAndTheHtmlReport(@TempDir Path dir) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = run("run", "12", "--seed", "42", "--report", dir.toString(), "--server", "embedded-7.0");
        } finally {
            System.setOut(out);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        assertTrue(text.contains("12 stale release"), text);
        assertTrue(text.contains("1 passed, 0 failed"), text);
        assertTrue(text.contains("server: Redis 7.0.15 (tested) at "), "the run names its server: " + text);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<svg") && html.contains("Scenario 12"), "timeline missing");
        assertTrue(!html.contains("<script") && !html.contains("src=\"http"), "report must work offline");
        assertTrue(Files.readString(dir.resolve("results.txt")).contains("1 passed"));
    }

    @Test
    void aBadConfigExitsWith2(@TempDir Path dir) throws Exception {
        Path typo = dir.resolve("typo.properties");
        Files.writeString(typo, "redlock.nodes=redis://a:1,redis://b:2,redis://c:3\nredlock.nodeTimout=80ms\n");
        assertEquals(2, run("run", "12", "--config", typo.toString()));
        assertEquals(2, run("run", "12", "--config", dir.resolve("missing.properties").toString()));
    }

    @Test
    void doctorIsASubcommand() {
        assertEquals(0, run("doctor", "--help"));
        assertEquals(2, run("doctor"), "--nodes is required");
    }

    @Test
    @Tag("chaos")
    void aTunedRunUsesTheFileAndSaysWhatAScenarioKeeps(@TempDir Path dir) throws Exception {
        Path cfg = dir.resolve("redlock.properties");
        Files.writeString(cfg, "redlock.nodes=redis://10.0.0.1:1,redis://10.0.0.2:1,redis://10.0.0.3:1\n"
                + "redlock.nodeTimeout=90ms\nredlock.driftFactor=0.02\nredlock.restartQuarantine=3s\nchaos.ttl=450ms\n");
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = run("run", "12", "6", "--seed", "7", "--config", cfg.toString(), "--report", dir.toString());
        } finally {
            System.setErr(err);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text);
        assertTrue(text.contains("6 keeps its own driftFactor=0.05 (yours 0.02)"), text);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("N=3 quorum=2 drift=0.02+2ms ttl=450ms nodeTimeout=90ms"), "scenario 12 ran tuned");
        assertTrue(html.contains("N=3 quorum=2 drift=0.05+2ms"), "scenario 6 kept its drift");
    }

    @Test
    @Timeout(60)
    void toxiproxyServerSubcommandServesTheApiUntilStopped() throws Exception {
        int port = Ports.free();
        int p = port;
        Thread server = new Thread(() -> run("toxiproxy-server", "--port", Integer.toString(p)), "cli-toxiproxy");
        server.setDaemon(true);
        server.start();
        // the readiness probe and the final check use an HTTP client with timeouts: the Toxiproxy client has none, and
        // a request that reaches a server mid-start or mid-stop could otherwise wait forever
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest versionRequest = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/version"))
                .timeout(Duration.ofSeconds(5)).build();
        String version = null;
        for (int i = 0; i < 100 && version == null; i++) {
            try {
                HttpResponse<String> r = http.send(versionRequest, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) version = r.body();
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        assertTrue(version != null && !version.isEmpty(), "the API did not answer");
        new ToxiproxyClient("127.0.0.1", port).createProxy("cli-test", "127.0.0.1:0", "127.0.0.1:1").delete();
        server.interrupt();   // the command waits on a latch; interrupting it closes the server
        server.join(5000);
        assertThrows(IOException.class, () -> http.send(versionRequest, HttpResponse.BodyHandlers.ofString()));
    }
}
