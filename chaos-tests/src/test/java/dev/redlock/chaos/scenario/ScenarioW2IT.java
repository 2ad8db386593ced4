package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Scenario W2; see {@link WatchdogScripts}. */
@Tag("chaos")
class ScenarioW2IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("W2");
    }
}
