package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The README's chaos suite, scenario 12; see {@link Scenarios}. */
@Tag("chaos")
class Scenario12IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("12");
    }
}
