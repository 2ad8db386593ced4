package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The README's chaos suite, scenario 7; see {@link Scenarios}. */
@Tag("chaos")
class Scenario7IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("7");
    }
}
