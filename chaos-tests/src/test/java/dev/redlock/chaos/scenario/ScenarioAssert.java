package dev.redlock.chaos.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs a scenario and fails with its full description (counts, checks, anomalies, history) when its claim fails. */
final class ScenarioAssert {
    private ScenarioAssert() {}

    static ScenarioResult runAndAssert(String id) {
        ScenarioResult r = ScenarioRunner.run(Scenarios.byId(id));
        System.out.println(r.describe()); // lands in target/surefire-reports/*-output.txt
        assertTrue(r.passed(), () -> r.describe());
        return r;
    }
}
