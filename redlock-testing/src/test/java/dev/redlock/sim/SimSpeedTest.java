package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The speed measurement still runs against the library's current scripts (a script change that breaks it, or a
 * fault that makes the model throw, fails here); its numbers are printed by {@link SimSpeed}, never asserted.
 */
class SimSpeedTest {
    @Test
    void theMeasurementsRunWithoutErrors() {
        assertTrue(SimSpeed.scripts(0.05) > 0);
        assertTrue(SimSpeed.rounds(0.05) > 0);
        assertTrue(SimSpeed.seeds(0.05) > 0, "at least one whole seed with faults ran clean");
    }
}
