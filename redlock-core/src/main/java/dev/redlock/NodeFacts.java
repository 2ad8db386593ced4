package dev.redlock;

import java.util.List;
import java.util.Map;

/**
 * What a preflight check reads from one node, as plain data, so the rules ({@link PreflightRules}) are a pure
 * function of it. Immutable.
 *
 * @param node        {@code host:port}
 * @param info        the fields of {@code INFO} (server, memory, replication sections), name to value
 * @param config      values read with {@code CONFIG GET}, name to value; empty when nothing was asked
 * @param configError the error text when {@code CONFIG GET} was refused (renamed or denied), else null
 * @param clock       {@code TIME} samples, each taken between two readings of this client's wall clock
 */
record NodeFacts(String node, Map<String, String> info, Map<String, String> config, String configError,
                 List<ClockSample> clock) {

    NodeFacts {
        info = Map.copyOf(info);
        config = Map.copyOf(config);
        clock = List.copyOf(clock);
    }

    /**
     * One {@code TIME} reading: the node's clock and this client's wall clock just before the command was sent and
     * just after the reply came, all in microseconds since the epoch.
     */
    record ClockSample(long clientBeforeUs, long nodeUs, long clientAfterUs) {
        /** The node's clock minus this client's at the midpoint of the round trip. */
        long offsetUs() {
            return nodeUs - (clientBeforeUs + clientAfterUs) / 2;
        }

        /** Half the round trip: how far off {@link #offsetUs()} can be. */
        long uncertaintyUs() {
            return (clientAfterUs - clientBeforeUs + 1) / 2;
        }
    }

    /** The sample with the shortest round trip (the most precise offset), or null when there is none. */
    ClockSample bestClock() {
        ClockSample best = null;
        for (ClockSample s : clock) if (best == null || s.uncertaintyUs() < best.uncertaintyUs()) best = s;
        return best;
    }
}
