package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The chaos suite (docs/chaos.md), scenario 9; see {@link Scenarios}. */
@Tag("chaos")
class Scenario9IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("9");
    }
}
