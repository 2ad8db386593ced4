package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Scenario W3; see {@link WatchdogScripts}. */
@Tag("chaos")
class ScenarioW3IT {
    @Test
    void claimHolds() {
        ScenarioAssert.runAndAssert("W3");
    }
}
