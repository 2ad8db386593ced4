package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The chaos suite (docs/chaos.md), scenario 1; see {@link Scenarios}. */
@Tag("chaos")
class Scenario1IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("1");
    }
}
