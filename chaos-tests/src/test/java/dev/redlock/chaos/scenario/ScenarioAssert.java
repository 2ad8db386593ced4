package dev.redlock.chaos.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs a scenario and fails with its full description (counts, checks, anomalies, history) when its claim fails. */
final class ScenarioAssert {
    private ScenarioAssert() {}

    static ScenarioResult runAndAssert(String id) {
        ScenarioResult r = ScenarioRunner.run(Scenarios.byId(id));
        assertTrue(r.passed(), () -> r.describe());
        return r;
    }
}
