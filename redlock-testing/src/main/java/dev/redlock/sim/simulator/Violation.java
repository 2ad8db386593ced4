package dev.redlock.sim.simulator;

import java.util.Locale;

/**
 * A property of the lock that a seed's run broke, found from the nodes' truth (or the clients' beliefs) at a step of
 * virtual time.
 *
 * @param kind     what broke (see {@link Kind})
 * @param atNanos  the virtual time it was found, nanoseconds since the seed's start
 * @param detail   what the checker saw: clients, owners, tokens, nodes
 */
public record Violation(Kind kind, long atNanos, String detail) {

    /** The properties the simulator checks. */
    public enum Kind {
        /** Two clients believed they held valid leases on one resource at the same moment. */
        TWO_HOLDERS,
        /**
         * A lease answered {@code isValid()} while fewer than a quorum of nodes still held its key with its owner value
         * (a node that restarted or is down since the grant excused: the restart quarantine covers it).
         */
        LEASE_WITHOUT_QUORUM,
        /** A lease's fencing token was not above the token of every lease on the resource that ended before it. */
        TOKEN_NOT_INCREASING,
        /** The fenced register applied a write over another value than its writer read (not linearizable). */
        LOST_UPDATE,
        /** A lease's validity was over, its holder had not released it, and {@code whenLost()} did not complete. */
        LOSS_NOT_REPORTED,
        /**
         * A lease answered {@code isValid()} again after its validity was seen over (an extension that answered after
         * the validity ended revived it: its holder may act again on a lease another client may meanwhile hold).
         */
        LEASE_REVIVED,
        /** Once every fault had healed, a resource could not be acquired within the bound. */
        NOT_LIVE,
        /** A client's operation did not end (a future never completed) long after the workload should have. */
        ACQUISITION_HUNG,
        /** Virtual time stood still: a task kept rescheduling itself with no delay. */
        STALLED,
        /** The library threw where it must not (a task of the loop failed). */
        CRASH
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.3fms %s: %s", atNanos / 1e6, kind, detail);
    }
}
