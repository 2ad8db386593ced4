package dev.redlock.chaos.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.TestAbortedException;

/**
 * Every scenario of the chaos suite (docs/chaos.md), in catalogue order, each must show what it claims on real
 * redis-server processes behind Toxiproxy. The VIOLATION scenarios are the twins of SAFE ones: 3 shows the two
 * holders that 4a-4c prevent (amnesia guard, AOF always, delayed restart), d1b and d4a what d1a and d4b prevent
 * (identity check, preflight), d8b, d9b, d10c and d11b what d8a, d9a, d10a/b and d11a prevent (identity check on a
 * kept connection and on a failback, membership records, the cap on guessed tokens).
 * {@code -Dredlock.chaos.scenarios=3,7} runs only those ({@code -Dchaos.seed=...} replays a run).
 */
@Tag("chaos")
class ScenarioClaimsIT {
    static Stream<Named<Scenario>> scenarios() {
        List<String> chosen = Arrays.stream(System.getProperty("redlock.chaos.scenarios", "").split(","))
                .map(String::trim).filter(id -> !id.isEmpty()).toList();
        Stream<Scenario> scenarios = chosen.isEmpty() ? Scenarios.all().stream() : chosen.stream().map(Scenarios::byId);
        return scenarios.map(s -> Named.of(s.id() + " " + s.name() + ": " + claim(s.expected()), s));
    }

    /** The claim, as the test's display name reads it. */
    private static String claim(Expectation e) {
        return switch (e) {
            case VIOLATION -> "VIOLATION expected, the unfenced store shows it, the fenced store rejects it";
            case SAFE -> "SAFE expected, the lock holds";
            case REFUSED -> "REFUSED expected, the library refuses the nodes before anything runs";
        };
    }

    /**
     * Runs the scenario and records it: its full description (counts, checks, anomalies, history) goes to the test
     * output; one that cannot run here ({@link Needs}) is reported skipped with the reason, never passed; one that
     * contradicts its claim fails with that description.
     */
    @DisplayName("scenario")
    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void claimHolds(Scenario scenario) {
        ScenarioResult r = ScenarioRunner.run(scenario);
        System.out.println(r.describe()); // lands in target/failsafe-reports/*-output.txt
        if (r.isSkipped()) throw new TestAbortedException("scenario " + scenario.id() + " skipped: " + r.skipped());
        assertTrue(r.passed(), r::describe);
    }
}
