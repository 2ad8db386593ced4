package dev.redlock.chaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.scenario.Scenarios;
import dev.redlock.chaos.scenario.Settings;
import dev.redlock.chaos.scenario.Tuning;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code run}'s options on top of a scenario's settings (and a tuned file's), without running anything. */
class RunOverridesTest {

    private static Settings override(Settings s, int externalNodes, String... options) {
        ChaosCli.Run run = new ChaosCli.Run();
        new CommandLine(run).parseArgs(options);
        return run.override(s, externalNodes);
    }

    @Test
    void aQuarantineDerivedFromTheTtlFollowsTtlAndOneSetByTheScenarioOrTheFileStays() {
        assertEquals(Duration.ofMillis(1400), override(Scenarios.byId("1").settings(), 0, "--ttl", "700ms")
                .restartQuarantine(), "scenario 1 derives it: 2 x 700 ms");
        assertEquals(Duration.ZERO, override(Scenarios.byId("3").settings(), 0, "--ttl", "700ms").restartQuarantine(),
                "scenario 3 turns the guard off");
        Properties file = new Properties();
        file.setProperty("redlock.nodes", "redis://10.0.0.1:1,redis://10.0.0.2:1,redis://10.0.0.3:1");
        file.setProperty("redlock.restartQuarantine", "20s");
        Tuning tuning = Tuning.fromProperties(file, "tuned.properties");
        Settings tuned = tuning.apply(Scenarios.byId("1")).scenario().settings();
        assertEquals(Duration.ofSeconds(20), override(tuned, 0, "--ttl", "700ms").restartQuarantine(),
                "the file's quarantine is not rewritten by --ttl");
        Settings restartRounds = tuning.apply(Scenarios.byId("4a")).scenario().settings();
        assertEquals(Duration.ofMillis(1400), override(restartRounds, 0, "--ttl", "700ms").restartQuarantine(),
                "4a keeps its own quarantine, 2 x its TTL");
    }

    @Test
    void fewerClientsDropTheOwnProxiesOfTheOthers() {
        Settings split = Scenarios.byId("14").settings();
        assertEquals(Set.of(0, 1, 2, 3, 4), split.ownProxies());
        assertEquals(Set.of(0, 1, 2), override(split, 0, "--clients", "3").ownProxies());
    }

    @Test
    void externalNodesSetNAndAMajorityQuorum() {
        Settings three = override(Scenarios.byId("12").settings(), 3);
        assertEquals(3, three.nodes());
        assertEquals(2, three.quorum());
        assertEquals(3, override(Scenarios.byId("12").settings(), 3, "--quorum", "3").quorum());
    }

    @Test
    void optionsTheHarnessCannotRunWithAreArgumentErrorsNamingTheSetting() {
        CommandLine.ParameterException quorum = assertThrows(CommandLine.ParameterException.class,
                () -> override(Scenarios.byId("1").settings(), 0, "--quorum", "2"));
        assertTrue(quorum.getMessage().contains("quorum must satisfy N/2 < quorum <= N (N=5), got 2"), quorum.getMessage());
        CommandLine.ParameterException clients = assertThrows(CommandLine.ParameterException.class,
                () -> override(Scenarios.byId("1").settings(), 0, "--clients", "0"));
        assertTrue(clients.getMessage().contains("clients must be >= 1, got 0"), clients.getMessage());
    }
}
