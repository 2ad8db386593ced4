package dev.redlock.doctor;

import java.time.Duration;

/**
 * One node's clock against this host's, from its {@code TIME} replies. Every value comes with a bound that holds
 * whatever the network did: the node read its clock somewhere inside the probe's round trip, so the midpoint is off
 * by at most half of it. Immutable.
 *
 * @param offsetFromHost        node clock minus this host's wall clock, from the fastest probe at the end of the window
 * @param offsetUncertainty     half that probe's round trip
 * @param offsetFromNodes       node clock minus the median of all reachable nodes' clocks (null with one node)
 * @param driftPpm              how much faster the node's clock runs than this host's monotonic clock, in parts per
 *                              million (+1000: 1 ms per second fast), from the fastest probe of the window's first
 *                              quarter to the fastest of its last; {@code NaN} when the window was too short
 * @param driftUncertaintyPpm   the bound on {@code driftPpm}: both probes' half round trips (and the 1 us resolution
 *                              of {@code TIME}) over the time between them
 * @param driftBase             the time between those two probes
 */
public record ClockMeasure(Duration offsetFromHost, Duration offsetUncertainty, Duration offsetFromNodes,
                           double driftPpm, double driftUncertaintyPpm, Duration driftBase) {
    /** Whether the rate was measured (a window long enough for two probes a quarter apart). */
    public boolean driftKnown() {
        return !Double.isNaN(driftPpm);
    }
}
