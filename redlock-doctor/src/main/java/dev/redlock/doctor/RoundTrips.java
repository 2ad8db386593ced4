package dev.redlock.doctor;

import java.time.Duration;

/**
 * Round trips of {@code TIME} probes to one node over the sampling window, sent at a fixed rate whatever the
 * replies (a node that stalls delays every probe sent meanwhile). Percentiles are nearest-rank over the answered
 * probes; with fewer than 1000 probes p99.9 is the maximum. Immutable.
 *
 * @param probes    probes answered
 * @param p50       median round trip
 * @param p99       99th percentile
 * @param p999      99.9th percentile
 * @param max       slowest answered probe (a late one included)
 * @param timeouts  probes answered after {@code probeTimeout}, or never (a late answer still counts in {@code max})
 * @param errors    probes that failed (connection lost, error reply)
 * @param lastError the last failure's text, null when none
 */
public record RoundTrips(long probes, Duration p50, Duration p99, Duration p999, Duration max, long timeouts,
                         long errors, String lastError) {
    /** No probe answered. */
    static RoundTrips none(long timeouts, long errors, String lastError) {
        return new RoundTrips(0, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, timeouts, errors, lastError);
    }
}
