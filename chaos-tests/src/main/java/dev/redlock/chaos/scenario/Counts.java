package dev.redlock.chaos.scenario;

import dev.redlock.chaos.checker.Result;

/**
 * The numbers of one run, for the report table.
 *
 * @param acquireAttempts       quorum rounds tried
 * @param acquireOk             rounds that returned a lease
 * @param operations            read-modify-write operations that issued a write (one per lease that wrote)
 * @param violations            overlapping believed-held windows (mutual-exclusion violations)
 * @param staleAcceptedUnfenced stale writes the unfenced store took
 * @param staleRejectedFenced   writes the fenced store refused
 * @param staleAcceptedFenced   stale writes the fenced store took (must be 0)
 * @param lostUpdates           increments lost in the unfenced counter
 * @param availability          acquireOk / acquireAttempts
 * @param longestNoHolderMs     longest stretch without a holder while a quorum of nodes was up
 * @param meanAcquireMs         mean duration of a successful round
 * @param unheld                leases a client believed it held while no majority of nodes held their value
 *                              (ground truth; -1 when it could not be decided)
 * @param keyLeaks              lock keys that outlived what the library accounts for (ground truth)
 * @param tokenInversions       leases whose token was not above an earlier holder's
 */
public record Counts(long acquireAttempts, long acquireOk, long operations, long violations, long staleAcceptedUnfenced,
                     long staleRejectedFenced, long staleAcceptedFenced, long lostUpdates, double availability,
                     double longestNoHolderMs, double meanAcquireMs, long unheld, long keyLeaks, long tokenInversions) {

    static Counts from(Result r) {
        return new Counts(l(r, "acquireAttempts"), l(r, "acquireOk"), l(r, "writesUnfenced"), l(r, "overlaps"),
                l(r, "staleAcceptedUnfenced"), l(r, "staleRejectedFenced"), l(r, "staleAcceptedFenced"),
                l(r, "lostUpdates"), d(r, "successRate"), d(r, "longestNoHolderMs"), d(r, "meanAcquireMs"),
                l(r, "believedWithoutMajority"), l(r, "keyLeaks"), l(r, "tokenInversions"));
    }

    /** Whether the unfenced store shows that the lock failed. */
    public boolean unfencedViolation() {
        return violations > 0 || staleAcceptedUnfenced > 0 || lostUpdates > 0;
    }

    /** Whether the lock failed: the unfenced store shows it, or a client believed a lease no majority held. */
    public boolean lockViolation() {
        return unfencedViolation() || unheld > 0;
    }

    private static long l(Result r, String m) {
        double v = r.metric(m);
        return Double.isNaN(v) ? -1 : (long) v;
    }

    private static double d(Result r, String m) {
        double v = r.metric(m);
        return Double.isNaN(v) ? -1 : v;
    }
}
