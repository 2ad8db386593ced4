package dev.redlock.bench;

import java.util.Arrays;

/** Latency samples in nanoseconds; percentiles by sorting (nearest rank). Not thread-safe: one per thread. */
final class Latencies {
    private long[] samples;
    private int count;

    Latencies(int capacity) {
        samples = new long[Math.max(16, capacity)];
    }

    void add(long nanos) {
        if (count == samples.length) samples = Arrays.copyOf(samples, count * 2);
        samples[count++] = nanos;
    }

    void addAll(Latencies other) {
        for (int i = 0; i < other.count; i++) add(other.samples[i]);
    }

    int count() {
        return count;
    }

    /** Nearest-rank percentile in milliseconds, {@code p} in [0, 100]; NaN when empty. */
    double percentileMs(double p) {
        if (count == 0) return Double.NaN;
        long[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * count);
        return sorted[Math.min(count - 1, Math.max(0, rank - 1))] / 1e6;
    }
}
