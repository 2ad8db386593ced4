package dev.redlock.sim.simulator;

import java.util.List;

/**
 * What one seed's run did and found. Two runs of one seed with the same options have the same result, trace
 * included, byte for byte.
 *
 * @param seed         the seed: {@code simulate --seed <seed>} replays it
 * @param world        the seed's world (nodes, clients, settings), as text
 * @param faults       the fault schedule that ran (after shrinking: the faults kept)
 * @param operations   client operations the workload was given (acquisitions and fenced writes; a run that
 *                     stops at a violation runs fewer)
 * @param leases       leases won
 * @param virtualNanos virtual time the run took
 * @param violations   the properties broken (empty: none); the run stops at the first
 * @param trace        the run's trace (empty unless tracing was on)
 */
public record SimulationResult(long seed, String world, List<String> faults, int operations, int leases,
                               long virtualNanos, List<Violation> violations, String trace) {

    public SimulationResult {
        faults = List.copyOf(faults);
        violations = List.copyOf(violations);
    }

    /** Whether a property was broken. */
    public boolean failed() {
        return !violations.isEmpty();
    }
}
