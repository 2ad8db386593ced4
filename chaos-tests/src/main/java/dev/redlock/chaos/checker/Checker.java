package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.History;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a finished {@link History} and decides whether it satisfies one property. Checkers are pure: they never
 * change the history. A checker that throws is reported as {@link Validity#UNKNOWN} by {@link #compose}, never as
 * a pass.
 */
@FunctionalInterface
public interface Checker {

    Result check(History history);

    /** A short stable name for reports; defaults to the class name. */
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * Runs every checker (each one's exceptions caught and turned into UNKNOWN) and ranks the verdicts
     * INVALID &gt; UNKNOWN &gt; VALID.
     */
    static Checker compose(String name, List<Checker> checkers) {
        List<Checker> copy = List.copyOf(checkers);
        return new Checker() {
            @Override
            public Result check(History history) {
                List<Result> parts = new ArrayList<>();
                Validity v = Validity.VALID;
                List<Anomaly> all = new ArrayList<>();
                for (Checker c : copy) {
                    Result r;
                    try {
                        r = c.check(history);
                        if (r == null) throw new IllegalStateException("returned null");
                    } catch (RuntimeException | Error e) {
                        r = Result.crashed(c.name(), e);
                    }
                    parts.add(r);
                    all.addAll(r.anomalies());
                    v = v.and(r.validity());
                }
                return new Result(name, v, all, Map.of(), parts);
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    /**
     * The checkers of the chaos suite: what clients believed (mutual exclusion, stale writes, lost updates, liveness,
     * token order) and the ground truth sampled from the nodes (leases believed without a majority, leaked keys).
     */
    static Checker standard() {
        return compose("redlock", List.of(new MutualExclusionChecker(), new StaleWriteChecker(),
                new LostUpdateChecker(), new LivenessChecker(), new TokenOrderChecker(), new GroundTruthChecker(),
                new KeyLeakChecker()));
    }
}
