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
 */
public record Counts(long acquireAttempts, long acquireOk, long operations, long violations, long staleAcceptedUnfenced,
                     long staleRejectedFenced, long staleAcceptedFenced, long lostUpdates, double availability,
                     double longestNoHolderMs, double meanAcquireMs) {

    static Counts from(Result r) {
        return new Counts(l(r, "acquireAttempts"), l(r, "acquireOk"), l(r, "writesUnfenced"), l(r, "overlaps"),
                l(r, "staleAcceptedUnfenced"), l(r, "staleRejectedFenced"), l(r, "staleAcceptedFenced"),
                l(r, "lostUpdates"), d(r, "successRate"), d(r, "longestNoHolderMs"), d(r, "meanAcquireMs"));
    }

    /** Whether the unfenced store shows that the lock failed. */
    public boolean unfencedViolation() {
        return violations > 0 || staleAcceptedUnfenced > 0 || lostUpdates > 0;
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
