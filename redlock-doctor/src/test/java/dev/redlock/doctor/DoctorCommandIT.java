package dev.redlock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.RedlockConfig;
import dev.redlock.testkit.BundledServer;
import dev.redlock.testkit.Ports;
import dev.redlock.testkit.RedisNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The doctor's command line on real nodes: distinct exit codes and clear messages, never a stack trace. */
class DoctorCommandIT {
    private static RedisNode open;
    private static RedisNode secured;

    @BeforeAll
    static void start() {
        open = RedisNode.start();
        secured = RedisNode.start(false, "--requirepass", "s3cret");
    }

    @AfterAll
    static void stop() {
        if (open != null) open.close();
        if (secured != null) secured.close();
    }

    record Run(int code, String out, String err) {
        void hasNoStackTrace() {
            assertFalse((out + err).contains("\tat "), "a stack trace was printed:\n" + out + err);
            assertFalse((out + err).contains("Exception in thread"), out + err);
        }
    }

    static Run doctor(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        CommandLine cl = new CommandLine(new DoctorCommand(o, e, false)).setOut(new PrintWriter(o, true))
                .setErr(new PrintWriter(e, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMalformedUriIsABadArgumentNamingTheNode() {
        Run r = doctor("--nodes", open.uri() + ",http://127.0.0.1:1", "--duration", "1s");
        assertEquals(DoctorReport.BAD_ARGUMENTS, r.code(), r.err());
        assertTrue(r.err().contains("nodes[1]") && r.err().contains("redis://"), r.err());
        r.hasNoStackTrace();
    }

    @Test
    void aBadDurationIsABadArgumentNamingTheOption() {
        Run r = doctor("--nodes", open.uri(), "--duration", "soon");
        assertEquals(DoctorReport.BAD_ARGUMENTS, r.code(), r.err());
        assertTrue(r.err().contains("--duration") && r.err().contains("soon"), r.err());
        r.hasNoStackTrace();
        Run range = doctor("--nodes", open.uri(), "--duration", "500ms");
        assertEquals(DoctorReport.BAD_ARGUMENTS, range.code(), range.err());
        assertTrue(range.err().contains("duration must be in [1s, 1h], got 500 ms"), range.err());
    }

    @Test
    void anUnreachableNodeHasItsOwnExitCodeAndIsNamed() throws Exception {
        int port = Ports.free();   // nothing listens there
        Run r = doctor("--nodes", open.uri() + ",redis://127.0.0.1:" + port, "--duration", "1s");
        assertEquals(DoctorReport.UNREACHABLE, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("127.0.0.1:" + port + "  UNREACHABLE"), r.out());
        assertTrue(r.out().contains("127.0.0.1:" + port + " unreachable: redis://127.0.0.1:" + port + ": cannot connect"), r.out());
        r.hasNoStackTrace();
    }

    @Test
    void aWrongPasswordHasItsOwnExitCodeAndTheMessageHidesThePassword() {
        Run r = doctor("--nodes", "redis://:not-the-password@127.0.0.1:" + secured.port(), "--duration", "1s");
        assertEquals(DoctorReport.AUTH_FAILED, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("AUTH_FAILED") && r.out().contains("WRONGPASS"), r.out());
        assertFalse((r.out() + r.err()).contains("not-the-password"), "the password was printed");
        r.hasNoStackTrace();
        Run none = doctor("--nodes", "redis://127.0.0.1:" + secured.port(), "--duration", "1s");
        assertEquals(DoctorReport.AUTH_FAILED, none.code(), none.out());
        assertTrue(none.out().contains("NOAUTH"), none.out());
    }

    @Test
    void aHealthyNodePassesAndTheWrittenFileIsAConfigTheLibraryLoads(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("redlock.properties");
        Run r = doctor("--nodes", open.uri(), "--duration", "1s", "--max-ttl", "5s", "--write", file.toString());
        assertEquals(DoctorReport.OK, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("verdict: every node passes (exit 0)"), r.out());
        RedlockConfig loaded = RedlockConfig.load(file);
        assertEquals(1, loaded.quorum());
        assertEquals(Duration.ofSeconds(5), loaded.restartQuarantine());
        assertTrue(Files.readString(file).contains("\nchaos.ttl="), Files.readString(file));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(file)), "the file holds the nodes' credentials");
        r.hasNoStackTrace();
    }

    @Test
    void eachNodeIsNamedByItsServerAndVersionAndWhetherItWasTested() {
        try (RedisNode redis70 = RedisNode.builder().binary(BundledServer.REDIS_7_0.path()).start()) {
            Run r = doctor("--nodes", open.uri() + "," + redis70.uri(), "--duration", "1s");
            assertTrue(r.out().contains("server          Redis 7.0.15, tested, run_id "), r.out());
            String own = open.info("server", "redis_version");
            boolean valkey = open.command("INFO", "server").contains("server_name:valkey");
            assertTrue(r.out().contains(valkey ? "server          Valkey " : "server          Redis " + own), r.out());
            Run json = doctor("--nodes", redis70.uri(), "--duration", "1s", "--json");
            assertTrue(json.out().contains("\"server\": \"Redis 7.0.15\"") && json.out().contains("\"serverTested\": true"),
                    json.out());
        }
    }
}
