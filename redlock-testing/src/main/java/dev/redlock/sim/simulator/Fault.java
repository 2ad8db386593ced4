package dev.redlock.sim.simulator;

import java.util.Locale;

/**
 * One fault of a seed's schedule: what, when (virtual ns from the start), for how long, on which node and client.
 * {@code index} is its place in the schedule the seed generated, so a shrunk schedule names the faults it kept.
 */
record Fault(int index, long at, Kind kind, int node, int client, long durationNs, long param) {

    enum Kind {
        /** Client and node cannot reach each other (both directions); what is sent is held until the heal. */
        PARTITION,
        /** Requests from the client to the node are held; replies flow. */
        CUT_TO_NODE,
        /** Replies from the node to the client are held; requests arrive and run. */
        CUT_TO_CLIENT,
        /** The client's connections to the node are reset: requests in flight may or may not have run. */
        RESET,
        /** The node's process is killed and restarted after the duration (memory lost, disk kept). */
        KILL,
        /** The node's machine loses power: as KILL, and what was not fsynced is lost too. */
        POWER_LOSS,
        /** The node's process is stopped (SIGSTOP) for the duration. */
        NODE_PAUSE,
        /** The client's process stops for the duration (a GC pause): its timers and network wait. */
        CLIENT_PAUSE,
        /**
         * The client's process stops for {@code param} ns right after its next request goes on the wire (a GC pause
         * with a call in flight: its replies and the timers of the call wait), if it sends one within the fault's
         * duration minus {@code param}.
         */
        CLIENT_PAUSE_IN_FLIGHT,
        /** The node's clock runs at rate {@code 1 + param * 1e-6} from now on (within the drift allowance). */
        NODE_CLOCK_RATE,
        /** The node's clock steps back by {@code param} microseconds (keys live longer, never shorter). */
        NODE_CLOCK_BACK,
        /** The client's wall clock steps to {@code param} microseconds off true time (its token guesses read it). */
        CLIENT_CLOCK_STEP,
        /** The node takes an RDB snapshot (what a later restart of an RDB node reloads). */
        SNAPSHOT,
        /** The link between client and node gets a long tail of delays (mean {@code param} ns) for the duration. */
        DELAY_SPIKE,
        /**
         * The nodes in the bit mask {@code param >> 8} lose the fence entry of resource {@code param & 0xff} (as its
         * retention running out or an eviction would).
         */
        FENCE_LOSS,
        /** Every node in the bit mask {@code param} is killed (odd ones lose power) and restarted after the duration. */
        RESTART_STORM;

        /** Whether it takes nodes out of service for its duration (counted against what the quorum tolerates). */
        boolean impairs() {
            return switch (this) {
                case PARTITION, CUT_TO_NODE, CUT_TO_CLIENT, KILL, POWER_LOSS, NODE_PAUSE, DELAY_SPIKE -> true;
                default -> false;
            };
        }

        /** Whether it affects every client (a node-wide fault) rather than one client's link. */
        boolean nodeWide() {
            return this == KILL || this == POWER_LOSS || this == NODE_PAUSE || this == RESTART_STORM;
        }
    }

    long end() {
        return at + durationNs;
    }

    /** Whether this fault touches the link between {@code client} and {@code node} (for excusing late clean-ups). */
    boolean touches(int c, int n) {
        return switch (kind) {
            case PARTITION, CUT_TO_NODE, CUT_TO_CLIENT, RESET, DELAY_SPIKE -> c == client && n == node;
            case KILL, POWER_LOSS, NODE_PAUSE -> n == node;
            case RESTART_STORM -> (param & (1L << n)) != 0;
            case CLIENT_PAUSE, CLIENT_PAUSE_IN_FLIGHT -> c == client;
            default -> false;
        };
    }

    @Override
    public String toString() {
        String t = String.format(Locale.ROOT, "#%d at %.3fms %s", index, at / 1e6, kind.name().toLowerCase(Locale.ROOT));
        return switch (kind) {
            case PARTITION, CUT_TO_NODE, CUT_TO_CLIENT, DELAY_SPIKE -> t + " c" + client + "/n" + node + " for "
                    + ms(durationNs) + (kind == Kind.DELAY_SPIKE ? " (mean " + ms(param) + ")" : "");
            case RESET -> t + " c" + client + "/n" + node;
            case KILL, POWER_LOSS, NODE_PAUSE -> t + " n" + node + " for " + ms(durationNs);
            case CLIENT_PAUSE -> t + " c" + client + " for " + ms(durationNs);
            case CLIENT_PAUSE_IN_FLIGHT -> t + " c" + client + " for " + ms(param) + " from its next send (within "
                    + ms(durationNs - param) + ")";
            case NODE_CLOCK_RATE -> t + " n" + node + " x" + (1 + param * 1e-6);
            case NODE_CLOCK_BACK -> t + " n" + node + " by " + ms(param * 1000);
            case CLIENT_CLOCK_STEP -> t + " c" + client + " to " + ms(param * 1000);
            case SNAPSHOT -> t + " n" + node;
            case FENCE_LOSS -> t + " nodes " + Long.toBinaryString(param >> 8) + " r" + (param & 0xff);
            case RESTART_STORM -> t + " nodes " + Long.toBinaryString(param) + " down for " + ms(durationNs);
        };
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3fms", ns / 1e6);
    }
}
