package dev.redlock.sim;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * The one-way delay of each message on a simulated link, drawn from the simulation's seeded random. Order on a
 * connection is kept whatever the draws (a message never overtakes an earlier one on the same connection).
 */
@FunctionalInterface
public interface LinkDelay {
    /** One message's delay in nanoseconds (>= 0). */
    long sampleNanos(SplittableRandom random);

    /** Every message takes {@code d}. */
    static LinkDelay fixed(Duration d) {
        long n = nonNegative(d);
        return r -> n;
    }

    /** Uniform in [{@code min}, {@code max}]. */
    static LinkDelay uniform(Duration min, Duration max) {
        long lo = nonNegative(min);
        long hi = nonNegative(max);
        if (hi < lo) throw new IllegalArgumentException("max must be >= min, got " + min + " > " + max);
        return r -> lo == hi ? lo : lo + r.nextLong(hi - lo + 1);
    }

    /** {@code base} plus an exponential tail of mean {@code mean} (a long-tailed network). */
    static LinkDelay exponential(Duration base, Duration mean) {
        long b = nonNegative(base);
        double m = nonNegative(mean);
        return r -> b + (long) (-m * Math.log(1 - r.nextDouble()));
    }

    private static long nonNegative(Duration d) {
        if (d.isNegative()) throw new IllegalArgumentException("a delay must be >= 0, got " + d);
        return d.toNanos();
    }
}
