package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The chaos suite (docs/chaos.md), scenario 6; see {@link Scenarios}. */
@Tag("chaos")
class Scenario6IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("6");
    }
}
