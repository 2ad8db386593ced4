package dev.redlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bench harness end to end with tiny counts (seconds, not minutes): it runs, checks, prints and writes JSON.
 * node-redlock joins when node and npm are on the PATH and is skipped (with the reason in the JSON) when not.
 */
class SideBySideSmokeIT {

    @Test
    @SuppressWarnings("unchecked")
    void smokeRunProducesTableAndJson() throws Exception {
        Path json = Path.of("target", "bench-smoke.json");
        Map<String, Object> out = SideBySide.run(Options.parse("--smoke", "--json=" + json,
                "--node-dir=target/node-redlock", "--w6-callers=1,8"));
        String table = (String) out.get("table");
        assertTrue(table.contains("W1 uncontended acquire p50"), table);
        assertTrue(table.contains("W4 acquire p50 N=9 / N=3"), table);
        assertTrue(table.contains("W6 8 callers, one instance: acquire+release pairs/s"), table);
        assertTrue(table.contains("load average at the start"), table);
        assertTrue(Files.size(json) > 100);
        assertTrue(Files.exists(Path.of("target", "bench-smoke.md")));
        var results = (Map<String, Map<String, Map<String, Double>>>) out.get("results");
        assertEquals(0.0, results.get("W2").get(SideBySide.REDLOCK).get("overlaps"), "overlapping holders");
        assertEquals(0.0, results.get("W2").get(SideBySide.REDLOCK).get("token_regressions"), "token went backwards");
        assertEquals(0.0, results.get("W2").get(SideBySide.REDISSON).get("overlaps"), "overlapping Redisson holders");
        assertTrue(results.get("W1").get(SideBySide.REDLOCK).get("samples") > 0);
        assertTrue(results.get("W6@1").get(SideBySide.REDLOCK).get("pairs") > 0, "W6 completed no pair");
        var meta = (Map<String, Object>) out.get("meta");
        if (NodeDriver.unavailable() == null) {
            assertEquals(0.0, results.get("W2").get(SideBySide.NODE).get("overlaps"), "overlapping node-redlock holders");
            assertTrue(results.get("W1").get(SideBySide.NODE).get("samples") > 0);
        } else {
            assertTrue(String.valueOf(meta.get("node_redlock")).startsWith("skipped: "), String.valueOf(meta));
            assertTrue(table.contains("n/a (node-redlock not run)"), table);
        }
    }

    @Test
    void badFlagsAreRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Options.parse("--iteratons=5"));
        assertTrue(e.getMessage().contains("--iteratons"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Options.parse("--w6-callers=1,x"));
        assertTrue(e.getMessage().contains("--w6-callers"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Options.parse("--runs=0"));
        assertTrue(e.getMessage().contains("--runs must be in [1, "), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Options.parse("--systems=redlock,jedis"));
        assertTrue(e.getMessage().contains("--systems has unknown 'jedis'"), e.getMessage());
    }
}
