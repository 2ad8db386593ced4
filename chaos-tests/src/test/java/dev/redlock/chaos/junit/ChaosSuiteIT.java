package dev.redlock.chaos.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.scenario.Expectation;
import dev.redlock.chaos.scenario.Needs;
import dev.redlock.chaos.scenario.Scenario;
import dev.redlock.chaos.scenario.Settings;
import dev.redlock.testkit.BundledServer;
import org.junit.jupiter.api.Tag;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;
import dev.redlock.chaos.scenario.Scenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entry point's planning, without running a scenario: choice, tuning, run-time overrides, errors. */
class ChaosSuiteIT {
    static Function<String, String> map(Map<String, String> m) {
        return m::get;
    }

    static ChaosSuite.Builder builder(Map<String, String> props, Map<String, String> env) {
        return ChaosSuite.builder(map(props), map(env));
    }

    @Test
    void oneTestPerChosenScenarioNamedByIdAndClaim() {
        List<DynamicTest> tests = builder(Map.of(), Map.of()).scenarios("12", "7").tests().toList();
        assertEquals(2, tests.size());
        assertEquals("12 stale release (expected SAFE)", tests.get(0).getDisplayName());
        assertEquals("7 client stall (expected VIOLATION)", tests.get(1).getDisplayName());
        assertEquals(Scenarios.all().size(), builder(Map.of(), Map.of()).build().scenarios().size(), "none chosen: all");
    }

    @Test
    void theConfigTunesThePlannedScenarios(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("redlock.properties");
        Files.writeString(file, "redlock.nodes=redis://a:1,redis://b:2,redis://c:3\nredlock.nodeTimeout=90ms\n"
                + "redlock.restartQuarantine=5s\nchaos.ttl=500ms\n");
        ChaosSuite suite = builder(Map.of(), Map.of()).scenarios("12", "6").config(file).build();
        Scenario twelve = suite.scenarios().get(0);
        assertEquals(3, twelve.settings().nodes());
        assertEquals(2, twelve.settings().quorum());
        assertEquals(Duration.ofMillis(90), twelve.settings().nodeTimeout());
        assertEquals(Duration.ofMillis(500), twelve.settings().ttl());
        assertTrue(suite.kept().stream().anyMatch(k -> k.startsWith("6 keeps its own driftFactor=0.05")), suite.kept().toString());
    }

    @Test
    void runTimeSettingsWinOverTheBuilder() {
        ChaosSuite fromProperty = builder(Map.of("redlock.chaos.scenarios", "1, 12"), Map.of()).scenarios("7").build();
        assertEquals(List.of("1", "12"), fromProperty.scenarios().stream().map(Scenario::id).toList());
        ChaosSuite fromEnv = builder(Map.of(), Map.of("REDLOCK_CHAOS_SCENARIOS", "d6")).scenarios("7").build();
        assertEquals(List.of("d6"), fromEnv.scenarios().stream().map(Scenario::id).toList());
        ChaosSuite external = builder(Map.of("redlock.chaos.nodes", "redis://127.0.0.1:21001,redis://127.0.0.1:21002,"
                + "redis://127.0.0.1:21003", "redlock.chaos.toxiproxy", "http://127.0.0.1:8474"), Map.of()).scenarios("12").build();
        assertEquals(3, external.scenarios().get(0).settings().nodes(), "N is the number of nodes given");
        assertEquals(2, external.scenarios().get(0).settings().quorum());
        ChaosSuite onRedis70 = builder(Map.of(), Map.of("REDLOCK_CHAOS_SERVER", "embedded-7.0")).server("embedded-6.2")
                .build();
        assertEquals(BundledServer.REDIS_7_0.path(), onRedis70.server());
        assertEquals(null, builder(Map.of(), Map.of()).build().server(), "none given: the testkit's default");
    }

    @Test
    @Tag("chaos")
    void aScenarioThatContradictsItsClaimFailsItsTestAndOneThatCannotRunIsAborted(@TempDir Path dir) throws Throwable {
        Scenario broken = new Scenario("X1", "broken script", "the script throws", Expectation.SAFE,
                Settings.builder().clients(1).duration(Duration.ofMillis(200)).build(), ctx -> {
                    throw new IllegalStateException("scenario set-up failed: on purpose");
                });
        Scenario impossible = new Scenario("X2", "needs 2 spare nodes", "none", Expectation.SAFE,
                Settings.builder().build(), ctx -> { }, Needs.NOTHING.withSpareNodes(4));
        List<DynamicTest> tests = ChaosSuite.of(List.of(broken, impossible), dir).tests().toList();
        AssertionFailedError failed = assertThrows(AssertionFailedError.class, () -> tests.get(0).getExecutable().execute());
        assertTrue(failed.getMessage().startsWith("scenario X1 (broken script) contradicts its claim SAFE: harness error"),
                failed.getMessage());
        assertTrue(failed.getMessage().contains("replay: -Dchaos.seed="), failed.getMessage());
        TestAbortedException skipped = assertThrows(TestAbortedException.class, () -> tests.get(1).getExecutable().execute());
        assertTrue(skipped.getMessage().contains("needs exactly 4 nodes beyond the quorum"), skipped.getMessage());
        assertTrue(Files.readString(dir.resolve("results.txt")).contains("X1"), "the report is written as it goes");
    }

    @Test
    void mistakesNameTheSetting() {
        IllegalArgumentException id = assertThrows(IllegalArgumentException.class,
                () -> builder(Map.of(), Map.of()).scenarios("99").build());
        assertTrue(id.getMessage().startsWith("redlock.chaos.scenarios: no scenario 99"), id.getMessage());
        IllegalArgumentException noProxy = assertThrows(IllegalArgumentException.class,
                () -> builder(Map.of("redlock.chaos.nodes", "redis://127.0.0.1:21001"), Map.of()).build());
        assertTrue(noProxy.getMessage().contains("needs redlock.chaos.toxiproxy"), noProxy.getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder(Map.of("redlock.chaos.nodes", "http://x:1",
                "redlock.chaos.toxiproxy", "http://127.0.0.1:8474"), Map.of()).build());
        IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
                () -> builder(Map.of("redlock.chaos.server", "/no/such/redis-server"), Map.of()).build());
        assertEquals("redlock.chaos.server: '/no/such/redis-server' is neither an executable file nor one of "
                + "[embedded-6.2, embedded-7.0]", server.getMessage());
    }
}
