package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The chaos suite (docs/chaos.md), scenario 4: scenario 3's fault made safe three ways. Scenario3IT is the twin that shows the violation
 * when none of them is in place.
 */
@Tag("chaos")
class Scenario4IT {
    @Test
    void amnesiaGuardOn() {
        ScenarioAssert.runAndAssert("4a");
    }

    @Test
    void aofAlways() {
        ScenarioAssert.runAndAssert("4b");
    }

    @Test
    void delayedRestart() {
        ScenarioAssert.runAndAssert("4c");
    }
}
