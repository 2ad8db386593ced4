package dev.redlock.chaos.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.cluster.FaketimeServer;
import dev.redlock.chaos.cluster.Toxiproxy;
import dev.redlock.doctor.ClockMeasure;
import dev.redlock.doctor.CommandCheck;
import dev.redlock.doctor.Doctor;
import dev.redlock.doctor.DoctorReport;
import dev.redlock.doctor.Finding;
import dev.redlock.doctor.MarkerState;
import dev.redlock.doctor.NodeReport;
import dev.redlock.doctor.Recommendation;
import dev.redlock.testkit.Ports;
import dev.redlock.testkit.RedisNode;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * The doctor on five real nodes set up to differ, examined once (5 s): an ACL user without {@code EVALSHA}, a
 * {@code maxmemory-policy volatile-lru} node, a replica, a node behind a Toxiproxy latency of 20 ms, and a node whose
 * clock runs at 1.001 under libfaketime (when installed; else a plain node and the rate test is skipped with a
 * message). Each test asserts what the report says about one of them, and that the recommendation follows from the
 * measurements by the documented rules (re-derived here, not read from the doctor's code).
 */
class DoctorIT {
    static final Duration WINDOW = Duration.ofSeconds(5);
    static final Duration MAX_TTL = Duration.ofSeconds(20);
    static final int LATENCY_MS = 20;
    static final double FAST_RATE = 1.001;
    /**
     * Beyond the report's own bound, for the rate of the fast-clock node: libfaketime scales this host's wall clock
     * while the doctor measures against its monotonic clock, and NTP may slew the wall clock (Linux: at most 500
     * ppm; an unsynchronised test machine: 0). 100 ppm is a tenth of the effect measured.
     */
    static final double RATE_SLACK_PPM = 100;

    static RedisNode plain, evicting, replica, slow;
    static FaketimeServer fast;
    static RedisNode fastFallback;
    static Proxy slowProxy;
    static String faketimeSkipped;
    static DoctorReport report;
    static List<Long> writesBefore, writesAfter;

    @BeforeAll
    static void examine() throws Exception {
        plain = RedisNode.start();
        plain.command("ACL", "SETUSER", "lowpriv", "on", ">lowpriv-pw", "~*", "&*", "+@all", "-evalsha");
        evicting = RedisNode.start();
        evicting.command("CONFIG", "SET", "maxmemory", "100mb");
        evicting.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
        replica = RedisNode.start();
        replica.command("REPLICAOF", "127.0.0.1", Integer.toString(plain.port()));
        slow = RedisNode.start();
        Toxiproxy tp = Toxiproxy.shared();
        int listen = Ports.free();
        slowProxy = tp.client().createProxy("doctor-slow-" + listen, tp.listenHost() + ":" + listen,
                tp.upstreamHost() + ":" + slow.port());
        slowProxy.toxics().latency("doctor-latency", ToxicDirection.DOWNSTREAM, LATENCY_MS);
        // the slow node is marked fresh by hand (this process's run_id and replication id, born 0): the doctor must
        // say FRESH
        String run = slow.runId();
        slow.command("HSET", "redlock:__node", "run", run, "rid", slow.info("replication", "master_replid"), "born", "0",
                "hw", "0", "q", "0");
        String fastUri;
        try {
            fast = startFastClock(FaketimeServer.library(System.getProperty("faketime.lib")));
            fastUri = "redis://127.0.0.1:" + fast.port();
        } catch (TestAbortedException e) {
            faketimeSkipped = e.getMessage();
            System.out.println("[doctor-it] " + faketimeSkipped);
            fastFallback = RedisNode.start();
            fastUri = fastFallback.uri();
        }
        // a marker written by another server process: the doctor must say OTHER_IDENTITY
        evicting.command("HSET", "redlock:__node", "run", "0000000000000000000000000000000000000000", "born", "1",
                "hw", "5", "q", "30000");
        List<String> nodes = List.of("redis://lowpriv:lowpriv-pw@127.0.0.1:" + plain.port(), evicting.uri(),
                replica.uri(), "redis://" + tp.listenHost() + ":" + listen, fastUri);
        writesBefore = writes();
        report = Doctor.builder().nodes(nodes).duration(WINDOW).maxTtl(MAX_TTL).build()
                .examine(line -> System.out.println("[doctor-it] " + line));
        writesAfter = writes();
        System.out.println(report.toText());
    }

    /**
     * A node whose clock runs at {@link #FAST_RATE}; skips (aborts) with a message when libfaketime is missing or
     * cannot move the server's clock.
     */
    static FaketimeServer startFastClock(Path lib) {
        if (lib == null) {
            throw new TestAbortedException("libfaketime not installed (set FAKETIME_LIB or install faketime): the "
                    + "fast-clock node is a plain node and its rate is not checked");
        }
        FaketimeServer s;
        try {
            s = FaketimeServer.start(lib, false);
        } catch (FaketimeServer.NoEffect e) {   // a statically linked server: its clock cannot be moved
            throw new TestAbortedException(e.getMessage() + ": the fast-clock node is a plain node and its rate is "
                    + "not checked");
        }
        s.rate(FAST_RATE);
        return s;
    }

    @AfterAll
    static void stop() throws Exception {
        if (slowProxy != null) slowProxy.delete();
        for (AutoCloseable c : new AutoCloseable[] {plain, evicting, replica, slow, fast, fastFallback}) {
            if (c != null) c.close();
        }
    }

    static NodeReport node(int i) {
        return report.nodes().get(i);
    }

    static boolean hasFinding(NodeReport n, String check, Finding.Severity severity, String... words) {
        return n.findings().stream().anyMatch(f -> f.check().equals(check) && f.severity() == severity
                && List.of(words).stream().allMatch(f.message()::contains));
    }

    @Test
    void theUserWithoutEvalshaIsNamedWithTheCommandAndTheGrant() {
        NodeReport n = node(0);
        assertEquals("lowpriv", n.user());
        CommandCheck evalsha = n.commands().stream().filter(c -> c.command().equals("EVALSHA")).findFirst().orElseThrow();
        assertEquals(CommandCheck.Status.DENIED, evalsha.status(), evalsha.toString());
        assertTrue(evalsha.required());
        assertTrue(evalsha.reply().startsWith("NOPERM"), evalsha.reply());
        assertTrue(hasFinding(n, "acl", Finding.Severity.FAIL, "user 'lowpriv' may not run EVALSHA",
                "ACL SETUSER lowpriv +evalsha"), n.findings().toString());
        List<CommandCheck> others = n.commands().stream().filter(c -> !c.command().equals("EVALSHA")).toList();
        assertTrue(others.stream().allMatch(c -> c.status() == CommandCheck.Status.PERMITTED), others.toString());
        assertEquals(MarkerState.State.ABSENT, n.marker().state());
    }

    @Test
    void theEvictingNodeIsFlagged() {
        NodeReport n = node(1);
        assertTrue(n.memory().contains("policy volatile-lru"), n.memory());
        assertTrue(hasFinding(n, "maxmemory-policy", Finding.Severity.FAIL, "volatile-lru", "can evict lock keys"),
                n.findings().toString());
        assertEquals(MarkerState.State.OTHER_IDENTITY, n.marker().state(), n.marker().toString());
        assertEquals(30000, n.marker().quarantineMs());
    }

    @Test
    void theReplicaIsFlagged() {
        NodeReport n = node(2);
        assertTrue(n.role().startsWith("slave of 127.0.0.1:" + plain.port()), n.role());
        assertTrue(hasFinding(n, "role", Finding.Severity.FAIL, "role=slave", "independent masters"), n.findings().toString());
    }

    @Test
    void theSlowNodesRoundTripsShowTheLatency() {
        NodeReport slowNode = node(3);
        Duration p50 = slowNode.roundTrips().p50();
        assertTrue(slowNode.roundTrips().probes() > 50, slowNode.roundTrips().toString());
        // every reply waits 20 ms in the proxy: never faster; the machine's load may add, not 20 ms more at the median
        assertTrue(p50.compareTo(Duration.ofMillis(LATENCY_MS)) >= 0 && p50.compareTo(Duration.ofMillis(2L * LATENCY_MS)) < 0,
                "p50 " + p50);
        assertTrue(slowNode.roundTrips().p999().compareTo(Duration.ofMillis(LATENCY_MS)) >= 0);
        for (int i : new int[] {0, 1, 2}) {
            assertTrue(node(i).roundTrips().p50().compareTo(Duration.ofMillis(LATENCY_MS)) < 0,
                    node(i).node() + " " + node(i).roundTrips());
        }
        assertEquals(MarkerState.State.FRESH, slowNode.marker().state(), slowNode.marker().toString());
    }

    @Test
    void theFastClockRunsAThousandPpmFastWithinTheReportsOwnBound() {
        Assumptions.assumeTrue(faketimeSkipped == null, () -> faketimeSkipped);
        ClockMeasure c = node(4).clock();
        assertTrue(c.driftKnown(), c.toString());
        assertTrue(c.driftUncertaintyPpm() < 500, "the window did not bound the rate: " + c);
        double expected = (FAST_RATE - 1) * 1e6;
        assertTrue(Math.abs(c.driftPpm() - expected) <= c.driftUncertaintyPpm() + RATE_SLACK_PPM,
                "rate " + c.driftPpm() + " ppm, expected " + expected + " ± " + c.driftUncertaintyPpm() + " + " + RATE_SLACK_PPM);
        for (int i : new int[] {0, 1, 2}) {
            ClockMeasure other = node(i).clock();
            assertTrue(Math.abs(other.driftPpm()) <= other.driftUncertaintyPpm() + RATE_SLACK_PPM, node(i).node() + " " + other);
        }
        assertTrue(c.offsetFromNodes().compareTo(Duration.ZERO) > 0, "the fast clock is ahead of the others: " + c);
    }

    @Test
    void withoutLibfaketimeTheFastClockNodeIsSkippedWithAMessage() {
        Path missing = FaketimeServer.library("/nonexistent/libfaketime.so.1");
        assertEquals(null, missing);
        TestAbortedException e = assertThrows(TestAbortedException.class, () -> startFastClock(missing));
        assertTrue(e.getMessage().contains("libfaketime not installed"), e.getMessage());
    }

    @Test
    void theRecommendationFollowsFromTheMeasurements() {
        Recommendation rec = report.recommendation().orElseThrow();
        assertEquals(5, rec.nodes());
        assertEquals(3, rec.quorum());
        assertEquals(2, rec.failuresTolerated());
        // nodeTimeout: 2 x the slowest p99.9 (the 20 ms node's at least), at least 10 ms, rounded up to 5 ms
        Duration tail = report.nodes().stream().map(n -> n.roundTrips().p999()).max(Duration::compareTo).orElseThrow();
        assertEquals(ceil(max(tail.multipliedBy(2), Duration.ofMillis(10)), Duration.ofMillis(5)), rec.nodeTimeout());
        assertTrue(rec.nodeTimeout().compareTo(Duration.ofMillis(2L * LATENCY_MS)) >= 0, rec.nodeTimeout().toString());
        // driftFactor: 2 x the fastest rate measured + 500 ppm, never below the default 0.01
        double fastest = report.nodes().stream().map(NodeReport::clock).filter(ClockMeasure::driftKnown)
                .mapToDouble(ClockMeasure::driftPpm).max().orElseThrow();
        assertEquals(Math.max(0.01, Math.ceil((2 * Math.max(0, fastest) + 500) / 1e6 * 1000 - 1e-9) / 1000), rec.driftFactor(), 1e-12);
        // minimum TTL: (5 x nodeTimeout + fixedDrift) / (1 - driftFactor), rounded up to 10 ms
        Duration minTtl = Duration.ofNanos((long) Math.ceil(rec.nodeTimeout().multipliedBy(5).plus(rec.fixedDrift()).toNanos()
                / (1 - rec.driftFactor())));
        assertEquals(ceil(minTtl, Duration.ofMillis(10)), rec.minTtl());
        // restartQuarantine: at least --max-ttl; here the clocks are close, so exactly that
        assertEquals(MAX_TTL, rec.restartQuarantine());
        assertTrue(rec.reasons().keySet().containsAll(List.of("redlock.quorum", "redlock.nodeTimeout",
                "redlock.driftFactor", "redlock.restartQuarantine", "minTtl")), rec.reasons().toString());
    }

    @Test
    void theVerdictFailsWithEveryReason() {
        assertEquals(DoctorReport.FAILED_CHECK, report.exitCode());
        List<String> failures = new ArrayList<>(report.failures());
        assertTrue(failures.stream().anyMatch(f -> f.contains("EVALSHA")), failures.toString());
        assertTrue(failures.stream().anyMatch(f -> f.contains("volatile-lru")), failures.toString());
        assertTrue(failures.stream().anyMatch(f -> f.contains("role=slave")), failures.toString());
        assertTrue(node(3).findings().stream().noneMatch(f -> f.severity() == Finding.Severity.FAIL), node(3).findings().toString());
        String json = report.toJson();
        assertTrue(json.contains("\"exitCode\": 1") && json.contains("\"status\": \"DENIED\""), json);
        assertTrue(!report.toText().contains("lowpriv-pw") && !json.contains("lowpriv-pw"), "a password was printed");
    }

    /** Every write a node applied since it started (persistence is off: nothing resets the counter). */
    static List<Long> writes() {
        List<Long> out = new ArrayList<>();
        for (RedisNode n : new RedisNode[] {plain, evicting, replica, slow}) {
            out.add(Long.parseLong(n.info("persistence", "rdb_changes_since_last_save")));
        }
        return out;
    }

    @Test
    void theDoctorWroteNothing() {
        assertEquals(writesBefore, writesAfter, "a probe wrote (rdb_changes_since_last_save moved)");
        // only what the set-up wrote: the slow node's fresh marker, the evicting node's foreign one
        assertEquals(List.of(), plain.keys("redlock:*"));
        assertEquals(List.of("redlock:__node"), evicting.keys("redlock:*"));
        assertEquals(List.of(), replica.keys("redlock:*"));
        assertEquals(List.of("redlock:__node"), slow.keys("redlock:*"));
        if (fast != null) assertEquals(List.of(), fast.keys("redlock:*"));
    }

    static Duration ceil(Duration d, Duration step) {
        return Duration.ofNanos((d.toNanos() + step.toNanos() - 1) / step.toNanos() * step.toNanos());
    }

    static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
