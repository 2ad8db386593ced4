package dev.redlock.sim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The simulator end to end: the real client and the real scripts on virtual time. A seed replays byte for byte; the
 * correct library breaks no property over a run of seeds; a known-unsafe configuration (the amnesia guard off) is
 * found within a bounded number of seeds, replays from its seed, and shrinks to a schedule that still fails.
 */
class SimulatorTest {
    private static final int OPS = 100;

    @Test
    void aSeedReplaysByteForByte() {
        Simulator sim = Simulator.of(OPS).traced();
        SimulationResult first = sim.run(7);
        SimulationResult second = sim.run(7);
        assertTrue(first.trace().lines().count() > 500, "a real run: " + first.trace().lines().count() + " lines");
        assertTrue(first.leases() > 0, "leases were won");
        assertFalse(first.faults().isEmpty(), "faults were injected");
        assertEquals(first.trace(), second.trace());
        assertEquals(first, second);
        SimulationResult other = sim.run(8);
        assertFalse(first.trace().equals(other.trace()), "another seed, another run");
    }

    @Test
    void theLibraryBreaksNoPropertyOverSeeds() {
        Simulator sim = Simulator.of(OPS);
        int leases = 0;
        for (long seed = 1; seed <= 40; seed++) {
            SimulationResult r = sim.run(seed);
            assertEquals(List.of(), r.violations(), "seed " + seed + " " + r.world() + " faults " + r.faults());
            leases += r.leases();
        }
        assertTrue(leases > 100, "the workload won leases: " + leases);
    }

    @Test
    void withoutTheAmnesiaGuardASafetyViolationIsFoundReplayedAndShrunk() {
        Simulator sim = Simulator.of(OPS).withoutAmnesiaGuard();
        SimulationResult failing = null;
        for (long seed = 1; seed <= 300 && failing == null; seed++) {
            SimulationResult r = sim.run(seed);
            if (r.failed()) failing = r;
        }
        assertNotNull(failing, "a violation within 300 seeds");
        assertTrue(Set.of(Violation.Kind.TWO_HOLDERS, Violation.Kind.TOKEN_NOT_INCREASING, Violation.Kind.LOST_UPDATE)
                .contains(failing.violations().get(0).kind()), "seed " + failing.seed() + " " + failing.violations());
        SimulationResult again = sim.run(failing.seed());
        assertEquals(failing.violations(), again.violations(), "replayed from its seed");
        SimulationResult shrunk = sim.shrink(failing.seed());
        assertTrue(shrunk.failed(), "the shrunk schedule still fails");
        assertTrue(shrunk.faults().size() <= failing.faults().size());
        assertTrue(shrunk.trace().contains("VIOLATION"), "the trace ends with what broke");
        // the same seeds with the guard on: no violation (the guard, not luck, is what prevents it)
        assertFalse(Simulator.of(OPS).run(failing.seed()).failed());
        List<String> kept = new ArrayList<>(shrunk.faults());
        assertEquals(kept, sim.traced().shrink(failing.seed()).faults(), "shrinking is deterministic too");
    }
}
