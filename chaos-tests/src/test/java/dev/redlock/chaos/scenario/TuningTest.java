package dev.redlock.chaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** A tuned run: the file's settings reach every scenario except what a scenario's claim depends on. */
class TuningTest {
    static final String FILE = """
            redlock.nodes=redis://10.0.0.1:6379,redis://10.0.0.2:6379,redis://10.0.0.3:6379,redis://10.0.0.4:6379,redis://10.0.0.5:6379
            redlock.quorum=4
            redlock.nodeTimeout=80ms
            redlock.driftFactor=0.012
            redlock.fixedDrift=3ms
            redlock.restartQuarantine=20s
            redlock.preflight=STRICT
            chaos.ttl=410ms
            """;

    static Tuning tuning(String text) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return Tuning.fromProperties(p, "tuned.properties");
    }

    @Test
    void aScenarioWithoutFixedSettingsRunsWithTheTunedOnes() throws Exception {
        Tuning.Tuned t = tuning(FILE).apply(Scenarios.byId("1"));
        Settings s = t.scenario().settings();
        assertEquals(5, s.nodes());
        assertEquals(4, s.quorum());
        assertEquals(0.012, s.driftFactor());
        assertEquals(Duration.ofMillis(3), s.fixedDrift());
        assertEquals(Duration.ofMillis(80), s.nodeTimeout());
        assertEquals(Duration.ofSeconds(20), s.restartQuarantine());
        assertEquals(Duration.ofMillis(410), s.ttl());
        assertEquals(Scenarios.byId("1").settings().clients(), s.clients(), "the workload is the scenario's");
        assertTrue(t.kept().isEmpty(), t.kept().toString());
    }

    @Test
    void aScenarioKeepsWhatItsClaimDependsOnAndSaysWhy() throws Exception {
        Tuning.Tuned six = tuning(FILE).apply(Scenarios.byId("6"));
        assertEquals(0.05, six.scenario().settings().driftFactor());
        assertEquals(Duration.ofMillis(80), six.scenario().settings().nodeTimeout());
        assertEquals(1, six.kept().size());
        assertTrue(six.kept().get(0).startsWith("driftFactor=0.05 (yours 0.012): its claim is a 3 % fast clock"),
                six.kept().toString());
        Tuning.Tuned ten = tuning(FILE).apply(Scenarios.byId("10"));
        assertEquals(Scenarios.byId("10").settings().nodeTimeout(), ten.scenario().settings().nodeTimeout());
        assertEquals(Scenarios.byId("10").settings().ttl(), ten.scenario().settings().ttl());
    }

    @Test
    void scenariosAboutTheGuardOffKeepItOff() throws Exception {
        Tuning t = tuning(FILE);
        for (Scenario s : Scenarios.all()) {
            if (s.settings().restartQuarantine().isZero() && s.needs().fixed().contains(Knob.RESTART_QUARANTINE)) {
                assertTrue(t.apply(s).scenario().settings().restartQuarantine().isZero(), s.id());
            }
        }
        for (String id : new String[] {"3", "4b", "4c"}) {
            assertTrue(t.apply(Scenarios.byId(id)).scenario().settings().restartQuarantine().isZero(), id);
        }
    }

    @Test
    void restartRoundsKeepTheirShortQuarantine() throws Exception {
        for (String id : new String[] {"4a", "d1a", "d2", "d5", "d6"}) {
            Settings own = Scenarios.byId(id).settings();
            Settings tuned = tuning(FILE).apply(Scenarios.byId(id)).scenario().settings();
            assertEquals(own.restartQuarantine(), tuned.restartQuarantine(), id);
            assertEquals(own.ttl(), tuned.ttl(), id);
        }
    }

    @Test
    void aScenarioWhoseTtlIsAboveTheFilesQuarantineKeepsItsOwnQuarantine() throws Exception {
        // L1 keeps its 3 s TTL; a 2 s quarantine would make every acquire of the run fail (ttl > quarantine)
        Tuning.Tuned late = tuning(FILE.replace("restartQuarantine=20s", "restartQuarantine=2s"))
                .apply(Scenarios.byId("L1"));
        assertEquals(Duration.ofSeconds(3), late.scenario().settings().ttl());
        assertEquals(Scenarios.byId("L1").settings().restartQuarantine(), late.scenario().settings().restartQuarantine());
        assertTrue(late.kept().get(late.kept().size() - 1).startsWith("restartQuarantine=6s (yours 2s): its ttl 3s is "
                + "above yours"), late.kept().toString());
    }

    @Test
    void withoutChaosTtlEachScenarioKeepsItsOwnTtl() throws Exception {
        Tuning t = tuning(FILE.replace("chaos.ttl=410ms\n", ""));
        assertEquals(Scenarios.byId("12").settings().ttl(), t.apply(Scenarios.byId("12")).scenario().settings().ttl());
    }

    @Test
    void badFilesNameTheKey() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> tuning(FILE + "chaos.tll=1s\n"));
        assertTrue(unknown.getMessage().contains("unknown property chaos.tll"), unknown.getMessage());
        IllegalArgumentException quorum = assertThrows(IllegalArgumentException.class,
                () -> tuning(FILE.replace("redlock.quorum=4", "redlock.quorum=2")));
        assertTrue(quorum.getMessage().contains("quorum must satisfy N/2 < quorum <= N (N=5), got 2"), quorum.getMessage());
        IllegalArgumentException ttl = assertThrows(IllegalArgumentException.class,
                () -> tuning(FILE.replace("chaos.ttl=410ms", "chaos.ttl=30s")));
        assertTrue(ttl.getMessage().contains("chaos.ttl must be in [") && ttl.getMessage().contains("got 30s"), ttl.getMessage());
        IllegalArgumentException shortTtl = assertThrows(IllegalArgumentException.class,
                () -> tuning(FILE.replace("chaos.ttl=410ms", "chaos.ttl=200ms")));
        assertTrue(shortTtl.getMessage().contains("3 x nodeTimeout"), shortTtl.getMessage());
        IllegalArgumentException two = assertThrows(IllegalArgumentException.class, () -> tuning(
                "redlock.nodes=redis://a:1,redis://b:2\n"));
        assertTrue(two.getMessage().contains("at least 3 nodes"), two.getMessage());
        IllegalArgumentException overQuarantine = assertThrows(IllegalArgumentException.class,
                () -> tuning(FILE.replace("redlock.restartQuarantine=20s", "redlock.restartQuarantine=300ms")));
        assertTrue(overQuarantine.getMessage().contains("must not exceed redlock.restartQuarantine"), overQuarantine.getMessage());
    }
}
