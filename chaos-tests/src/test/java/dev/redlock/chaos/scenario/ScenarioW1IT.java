package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Scenario W1; see {@link WatchdogScripts}. */
@Tag("chaos")
class ScenarioW1IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("W1");
    }
}
