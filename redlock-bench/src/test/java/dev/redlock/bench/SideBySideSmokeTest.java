package dev.redlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench harness end to end with tiny counts (seconds, not minutes): it runs, checks, prints and writes JSON. */
class SideBySideSmokeTest {

    @Test
    @SuppressWarnings("unchecked")
    void smokeRunProducesTableAndJson() throws Exception {
        Path json = Path.of("target", "bench-smoke.json");
        Map<String, Object> out = SideBySide.run(Options.parse("--smoke", "--json=" + json));
        String table = (String) out.get("table");
        assertTrue(table.contains("W1 uncontended acquire p50"), table);
        assertTrue(table.contains("W4 p50 N=9 / N=3"), table);
        assertTrue(Files.size(json) > 100);
        var results = (Map<String, Map<String, Map<String, Double>>>) out.get("results");
        assertEquals(0.0, results.get("W2").get(SideBySide.REDLOCK).get("overlaps"), "overlapping holders");
        assertEquals(0.0, results.get("W2").get(SideBySide.REDLOCK).get("token_regressions"), "token went backwards");
        assertEquals(0.0, results.get("W2").get(SideBySide.REDISSON).get("overlaps"), "overlapping Redisson holders");
        assertTrue(results.get("W1").get(SideBySide.REDLOCK).get("samples") > 0);
    }

    @Test
    void unknownFlagIsRejectedByName() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Options.parse("--iteratons=5"));
        assertTrue(e.getMessage().contains("--iteratons"), e.getMessage());
    }
}
