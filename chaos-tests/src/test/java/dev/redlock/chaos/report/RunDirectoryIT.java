package dev.redlock.chaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.history.HistoryJson;
import dev.redlock.chaos.scenario.ScenarioResult;
import dev.redlock.chaos.scenario.ScenarioRunner;
import dev.redlock.chaos.scenario.Scenarios;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real run stored and read back: scenario 1 (SAFE) and its opposite 3 (VIOLATION, the amnesia twin) run on
 * redis-server processes behind Toxiproxy, {@link RunDirectory#write} stores them, {@link RunDirectory#read} judges
 * them again from the stored histories: every verdict, count, observation and status must come back as the run
 * had them, and each stored history must be the run's, byte for byte once written again.
 */
@Tag("chaos")
class RunDirectoryIT {
    @TempDir
    Path dir;

    @Test
    void aStoredRunIsJudgedAsItRan() throws Exception {
        List<ScenarioResult> ran = List.of(ScenarioRunner.run(Scenarios.byId("1")), ScenarioRunner.run(Scenarios.byId("3")));
        assertTrue(ran.get(0).passed() && ran.get(1).passed(), () -> ran.get(0).describe() + ran.get(1).describe());
        RunDirectory.write(dir, ran, "server: test\n");
        assertTrue(Files.isRegularFile(dir.resolve("report.html")));

        List<RunDirectory.Stored> stored = RunDirectory.read(dir);
        assertEquals(2, stored.size());
        for (int i = 0; i < ran.size(); i++) {
            ScenarioResult then = ran.get(i);
            RunDirectory.Stored s = stored.get(i);
            ScenarioResult now = s.now();
            assertFalse(s.changed(), () -> "re-check of " + then.id() + " differs: " + now.verdict());
            assertEquals(then.status(), now.status());
            assertEquals(then.observed(), now.observed());
            assertEquals(then.counts(), now.counts());
            assertEquals(then.verdict().toString(), now.verdict().toString());
            assertEquals(then.failures(), now.failures());
            assertEquals(then.settings().toString(), now.settings().toString());
            assertEquals(json(then), json(now), "stored history of " + then.id());
        }
        assertEquals("VIOLATION", stored.get(1).now().observed().name(), "the twin's violation survives the round trip");
        assertEquals("server: test\n", RunDirectory.footer(dir));
    }

    private static String json(ScenarioResult r) throws Exception {
        StringWriter w = new StringWriter();
        HistoryJson.write(r.history(), w);
        return w.toString();
    }
}
