package dev.redlock.testkit;

/**
 * The one seed convention of this project's randomized tests: a run prints its seed, and
 * {@code -Dredlock.seed=<seed>} replays it (every randomized test of that run then uses that seed).
 */
public final class Seeds {
    /** The system property that replays a seed. */
    public static final String PROPERTY = "redlock.seed";

    private Seeds() {}

    /** {@code -Dredlock.seed} when given, else a fresh seed; printed with {@code what} and how to replay it. */
    public static long seed(String what) {
        long seed = Long.getLong(PROPERTY, System.nanoTime());
        System.out.println(what + " seed=" + seed + " (replay: -D" + PROPERTY + "=" + seed + ")");
        return seed;
    }
}
