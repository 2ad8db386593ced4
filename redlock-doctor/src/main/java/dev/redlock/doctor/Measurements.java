package dev.redlock.doctor;

import dev.redlock.internal.Diagnostics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** Round-trip percentiles and clock offset and rate from a node's samples: pure functions, no I/O. */
final class Measurements {
    /** The rate needs two probes at least this far apart. */
    static final Duration MIN_DRIFT_BASE = Duration.ofMillis(500);

    private Measurements() {}

    /** Nearest-rank percentiles of the answered probes. */
    static RoundTrips roundTrips(List<Sample> samples, long timeouts, long errors, String lastError) {
        if (samples.isEmpty()) return RoundTrips.none(timeouts, errors, lastError);
        long[] rtt = samples.stream().mapToLong(Sample::rttNanos).toArray();
        Arrays.sort(rtt);
        return new RoundTrips(rtt.length, nanos(percentile(rtt, 50)), nanos(percentile(rtt, 99)),
                nanos(percentile(rtt, 99.9)), nanos(rtt[rtt.length - 1]), timeouts, errors, lastError);
    }

    /** Nearest rank: the smallest value with at least {@code p} percent of the values at or below it. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length / 100.0 - 1e-9);   // 99.9 x 1000 / 100 is 999.0000000000001
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * Offset from this host (the fastest probe of the last quarter of the window) and rate (the fastest probes of the
     * first and last quarters); {@code offsetFromNodes} is left null (it needs every node: {@link #withNodeOffsets}).
     * Null when there is no sample.
     */
    static ClockMeasure clock(List<Sample> samples) {
        if (samples.isEmpty()) return null;
        long first = samples.get(0).sentNanos();
        long last = samples.get(samples.size() - 1).answeredNanos();
        long quarter = (last - first) / 4;
        Sample early = fastest(samples, first, first + quarter);
        Sample late = fastest(samples, last - quarter, last);
        if (late == null) late = fastest(samples, first, last);
        double ppm = Double.NaN;
        double errPpm = Double.NaN;
        Duration base = Duration.ZERO;
        if (early != null && late != null && early != late) {
            double dtUs = late.monoMidUs() - early.monoMidUs();
            if (dtUs >= MIN_DRIFT_BASE.toNanos() / 1000.0) {
                ppm = ((late.nodeUs() - early.nodeUs()) / dtUs - 1) * 1e6;
                // each midpoint is within half its round trip of the moment the node read its clock; TIME has 1 us steps
                errPpm = (early.rttNanos() / 2000.0 + late.rttNanos() / 2000.0 + 2) / dtUs * 1e6;
                base = Duration.ofNanos(Math.round(dtUs * 1000));
            }
        }
        return new ClockMeasure(Duration.ofNanos(late.offsetUs() * 1000), Duration.ofNanos(late.uncertaintyUs() * 1000),
                null, ppm, errPpm, base);
    }

    /**
     * Each node's offset from the median of the nodes' offsets (all measured from this host, so the comparison
     * needs no clock of its own); nodes without a clock measure are left as they are.
     */
    static List<ClockMeasure> withNodeOffsets(List<ClockMeasure> clocks) {
        List<Long> offsets = new ArrayList<>();
        for (ClockMeasure c : clocks) if (c != null) offsets.add(c.offsetFromHost().toNanos());
        if (offsets.size() < 2) return clocks;
        offsets.sort(Comparator.naturalOrder());
        long median = offsets.get(offsets.size() / 2);
        List<ClockMeasure> out = new ArrayList<>();
        for (ClockMeasure c : clocks) {
            out.add(c == null ? null : new ClockMeasure(c.offsetFromHost(), c.offsetUncertainty(),
                    Duration.ofNanos(c.offsetFromHost().toNanos() - median), c.driftPpm(), c.driftUncertaintyPpm(),
                    c.driftBase()));
        }
        return out;
    }

    /** The {@code n} fastest probes of the window's last quarter, as readings for the preflight clock rule. */
    static List<Diagnostics.ClockReading> clockReadings(List<Sample> samples, int n) {
        if (samples.isEmpty()) return List.of();
        long first = samples.get(0).sentNanos();
        long last = samples.get(samples.size() - 1).answeredNanos();
        long from = last - (last - first) / 4;
        return samples.stream().filter(s -> s.sentNanos() >= from).sorted(Comparator.comparingLong(Sample::rttNanos))
                .limit(n).map(s -> new Diagnostics.ClockReading(s.wallBeforeUs(), s.nodeUs(), s.wallAfterUs())).toList();
    }

    private static Sample fastest(List<Sample> samples, long fromNanos, long toNanos) {
        Sample best = null;
        for (Sample s : samples) {
            if (s.sentNanos() < fromNanos || s.answeredNanos() > toNanos) continue;
            if (best == null || s.rttNanos() < best.rttNanos()) best = s;
        }
        return best;
    }

    private static Duration nanos(long n) {
        return Duration.ofNanos(n);
    }
}
