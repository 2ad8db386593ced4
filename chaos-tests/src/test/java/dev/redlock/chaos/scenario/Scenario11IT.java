package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The chaos suite (docs/chaos.md), scenario 11; see {@link Scenarios}. */
@Tag("chaos")
class Scenario11IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("11");
    }
}
