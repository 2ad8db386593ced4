package dev.redlock.doctor;

import java.util.List;

/**
 * What the doctor measured on one node. For a node it could not reach only {@link #node}, {@link #uri},
 * {@link #reach} and {@link #error} are set (the rest empty or null). Never holds a password. Immutable.
 *
 * @param node        {@code host:port}
 * @param uri         the node's URI with the password replaced by {@code ***}
 * @param reach       whether the doctor could connect and authenticate
 * @param error       why not (null when reachable)
 * @param version     {@code redis_version}
 * @param server      the server as the library's version check names it: flavour and its own version
 *                    ({@code Redis 7.4.1}, {@code Valkey 8.0.1 (redis_version 7.2.4)}), and whether this project's server
 *                    matrix tested it (its line: the README's table of tested servers)
 * @param runId       {@code run_id} of the server process
 * @param user        the ACL user the connection runs as ({@code ACL WHOAMI}; "unknown" when that is denied)
 * @param role        {@code master}, or {@code slave of host:port} (Redis's word in {@code INFO})
 * @param persistence RDB and AOF settings in one line, with what a restart brings back
 * @param memory      {@code maxmemory} and {@code maxmemory-policy} in one line
 * @param commands    every command the library sends, and whether this node's ACL user may run it
 * @param marker      the library's marker on the node
 * @param roundTrips  round trips over the sampling window
 * @param clock       offset and rate against this host, and offset from the other nodes
 * @param findings    what to act on: the preflight verdicts under the recommended settings, denied commands, timeouts
 */
public record NodeReport(String node, String uri, Reach reach, String error, String version, Server server,
                         String runId, String user, String role, String persistence, String memory, List<CommandCheck> commands,
                         MarkerState marker, RoundTrips roundTrips, ClockMeasure clock, List<Finding> findings) {

    public NodeReport {
        commands = commands == null ? List.of() : List.copyOf(commands);
        findings = findings == null ? List.of() : List.copyOf(findings);
    }

    /**
     * Which server a node runs.
     *
     * @param description {@code Redis 7.4.1}, {@code Valkey 8.0.1 (redis_version 7.2.4)},
     *                    {@code Redis 8.0 pre-release (redis_version 7.9.224)}
     * @param tested      whether the project's server matrix ran its line (untested: a preflight warning says why)
     */
    public record Server(String description, boolean tested) {
        @Override
        public String toString() {
            return description + (tested ? ", tested" : ", not tested");
        }
    }

    /** Whether the doctor could use a node. */
    public enum Reach {
        /** Connected and authenticated. */
        REACHABLE,
        /** No connection (refused, timed out, name not resolved, TLS failed). */
        UNREACHABLE,
        /** Connected, but {@code AUTH} (or a command of the handshake) was refused: credentials or ACL. */
        AUTH_FAILED
    }

    /** Whether this node fails a check ({@link Finding.Severity#FAIL}) or could not be examined. */
    public boolean fails() {
        return reach != Reach.REACHABLE || findings.stream().anyMatch(Finding::fails);
    }

    NodeReport withFindings(List<Finding> f) {
        return new NodeReport(node, uri, reach, error, version, server, runId, user, role, persistence, memory, commands,
                marker, roundTrips, clock, f);
    }
}
