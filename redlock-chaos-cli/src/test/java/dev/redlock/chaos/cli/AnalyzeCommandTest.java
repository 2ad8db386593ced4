package dev.redlock.chaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;
import dev.redlock.chaos.report.RunDirectory;
import dev.redlock.chaos.scenario.Expectation;
import dev.redlock.chaos.scenario.Outcome;
import dev.redlock.chaos.scenario.Scenario;
import dev.redlock.chaos.scenario.ScenarioResult;
import dev.redlock.chaos.scenario.ScenarioRunner;
import dev.redlock.chaos.scenario.Scenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code analyze} on stored runs built by hand (no processes): it judges the stored history, not the stored verdict.
 * A SAFE scenario whose history shows two overlapping holders and a stale write is a FAIL when re-checked, whatever
 * the run recorded; a directory without a stored run is a usage error.
 */
class AnalyzeCommandTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Two clients both believe they hold the lock at 1.05 s, and the stale holder's unfenced write is accepted. */
    private static History twoHolders() {
        History h = new History(5, 3);
        h.span(1_000 * MS, 2_000 * MS);
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, 0, 1_010 * MS, "", -1, 0, "");
        h.append(Event.Type.OK, Event.Op.ACQUIRE, 0, 1_020 * MS, "c0#1", 1, 280 * MS, "");
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, 1, 1_030 * MS, "", -1, 0, "");
        h.append(Event.Type.OK, Event.Op.ACQUIRE, 1, 1_040 * MS, "c1#1", 2, 280 * MS, "");
        h.write(Write.Store.UNFENCED, 1, 1_050 * MS, 1_051 * MS, "c1#1", 2, 0, 1, 0, -1, true);
        h.write(Write.Store.UNFENCED, 0, 1_045 * MS, 1_060 * MS, "c0#1", 1, 0, 1, 1, 2, true);
        return h;
    }

    private static ScenarioResult judged(Scenario s, History h) {
        return ScenarioRunner.recheck(new ScenarioResult(s.id(), s.name(), s.fault(), s.expected(), Outcome.UNKNOWN,
                false, List.of(), null, List.of(), null, h, h.faults(), "test", "none", 42, s.settings(), 10, null));
    }

    private int analyze() {
        return new CommandLine(new ChaosCli()).execute("analyze", dir.toString());
    }

    @Test
    void aStoredViolationOfASafeClaimFailsTheReCheck() throws Exception {
        Scenario safe = Scenarios.byId("1");
        assertEquals(Expectation.SAFE, safe.expected());
        ScenarioResult r = judged(safe, twoHolders());
        assertFalse(r.passed(), r::describe);
        RunDirectory.write(dir, List.of(r), "server: hand-built\n");

        assertEquals(1, analyze(), "a SAFE claim contradicted by its history");
        assertFalse(RunDirectory.read(dir).get(0).changed());
        assertTrue(Files.readString(dir.resolve("results.txt")).contains("FAIL"));
    }

    @Test
    void theHistoryDecidesNotTheRecordedVerdict() throws Exception {
        RunDirectory.write(dir, List.of(judged(Scenarios.byId("1"), twoHolders())), "");
        Path manifest = dir.resolve("run.json");
        Files.writeString(manifest, Files.readString(manifest).replace("\"status\": \"FAIL\"", "\"status\": \"PASS\""));

        RunDirectory.Stored s = RunDirectory.read(dir).get(0);
        assertEquals("PASS", s.statusThen());
        assertEquals("FAIL", s.now().status());
        assertTrue(s.changed());
        assertEquals(1, analyze());
    }

    @Test
    void aDirectoryWithoutAStoredRunIsAUsageError() {
        assertEquals(2, analyze());
    }
}
