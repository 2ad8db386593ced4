package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Scenario L1; see {@link LateGrantScripts}. */
@Tag("chaos")
class ScenarioL1IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("L1");
    }
}
