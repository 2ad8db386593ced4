package dev.redlock.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One-line descriptions of a node's settings, and the findings that are the doctor's own (permissions, probes). */
final class NodeDescriptions {
    private NodeDescriptions() {}

    /** {@code master}, or {@code slave of host:port} (Redis's own word in {@code INFO}). */
    static String role(Map<String, String> info) {
        String role = info.getOrDefault("role", "unknown");
        if (role.equals("master")) {
            String replicas = info.getOrDefault("connected_slaves", "0");
            return "master" + (replicas.equals("0") ? "" : " (" + replicas + " replica(s))");
        }
        return role + (info.containsKey("master_host") ? " of " + info.get("master_host") + ":"
                + info.getOrDefault("master_port", "?") + ", link " + info.getOrDefault("master_link_status", "?") : "");
    }

    /** RDB and AOF settings, and what a restart brings back (the library needs none: a restart is a new identity). */
    static String persistence(Map<String, String> info, Map<String, String> config, String configError) {
        String save = config.get("save");
        String rdb = save == null ? "RDB schedule unknown" + (configError != null ? " (CONFIG GET refused)" : "")
                : save.isBlank() ? "RDB off" : "RDB save \"" + save + "\"";
        boolean aof = "1".equals(info.get("aof_enabled")) || "yes".equals(config.get("appendonly"));
        String fsync = config.get("appendfsync");
        String aofText = aof ? "AOF on" + (fsync != null ? ", appendfsync " + fsync : "") : "AOF off";
        String restart = aof ? "a restart replays the AOF" : save != null && !save.isBlank()
                ? "a restart reloads the last snapshot" : save != null ? "a restart starts empty" : "a restart may reload a snapshot";
        return rdb + "; " + aofText + ": " + restart + ", as a new identity (quarantined; the library needs no persistence)";
    }

    /** maxmemory and its policy. */
    static String memory(Map<String, String> info, Map<String, String> config) {
        String max = info.getOrDefault("maxmemory", config.get("maxmemory"));
        String policy = info.getOrDefault("maxmemory_policy", config.getOrDefault("maxmemory-policy", "unknown"));
        String used = info.get("used_memory_human");
        String limit = max == null ? "maxmemory unknown" : max.equals("0") ? "maxmemory 0 (no limit)"
                : "maxmemory " + info.getOrDefault("maxmemory_human", max);
        return limit + ", policy " + policy + (used != null ? ", used " + used : "");
    }

    /**
     * Denied or unavailable commands (FAIL when the library needs them), scripts that cannot be loaded, probes
     * unanswered or failed.
     */
    static List<Finding> ownFindings(String node, String user, String keyPrefix, List<CommandCheck> commands, RoundTrips rt) {
        List<Finding> out = new ArrayList<>();
        String who = user == null || user.startsWith("unknown") ? "the connecting user" : "user '" + user + "'";
        for (CommandCheck c : commands) {
            if (c.status() == CommandCheck.Status.PERMITTED) continue;
            String what = switch (c.status()) {
                case DENIED -> "may not run " + c.command() + " (" + c.reply() + "); grant it: " + grant(c, user, keyPrefix);
                case UNAVAILABLE -> "cannot run " + c.command() + ": the server does not know it (renamed or disabled: "
                        + c.reply() + ")";
                default -> "was not probed for " + c.command() + " (" + c.reply() + ")";
            };
            boolean fails = c.required() && c.status() != CommandCheck.Status.UNKNOWN;
            out.add(new Finding("acl", fails ? Finding.Severity.FAIL : Finding.Severity.WARN, node + " " + who + " "
                    + what + "; used by " + c.usedBy()));
        }
        if (!permitted(commands, "SCRIPT LOAD") && !permitted(commands, "EVAL") && permitted(commands, "EVALSHA")) {
            out.add(new Finding("acl", Finding.Severity.FAIL, node + " " + who + " may run neither SCRIPT LOAD nor EVAL: "
                    + "EVALSHA finds no script to run; permit one of them"));
        }
        if (rt.timeouts() > 0) {
            out.add(new Finding("rtt", Finding.Severity.WARN, node + " left " + rt.timeouts() + " of "
                    + (rt.probes() + rt.timeouts()) + " probes unanswered past the probe timeout: its votes would time out"));
        }
        if (rt.errors() > 0) {
            out.add(new Finding("rtt", Finding.Severity.WARN, node + " failed " + rt.errors() + " probe(s), the last: "
                    + rt.lastError()));
        }
        return out;
    }

    private static boolean permitted(List<CommandCheck> commands, String command) {
        return commands.stream().anyMatch(c -> c.command().equals(command) && c.status() == CommandCheck.Status.PERMITTED);
    }

    /** The ACL rule that grants what the NOPERM reply says is missing: the command, the key pattern or the channel. */
    static String grant(CommandCheck c, String user, String keyPrefix) {
        String u = user == null || user.startsWith("unknown") ? "<user>" : user;
        String reply = c.reply().toLowerCase(Locale.ROOT);
        // 6.2: "... to access one of the keys used as arguments"; 7.x: "No permissions to access a key"
        if (reply.contains("access a key") || reply.contains("access one of the keys")) return "ACL SETUSER " + u + " ~" + keyPrefix + "*";
        if (reply.contains("access a channel") || reply.contains("access one of the channels")) return "ACL SETUSER " + u + " &" + keyPrefix + "*";
        return "ACL SETUSER " + u + " +" + c.command().toLowerCase(Locale.ROOT).replace(' ', '|');
    }

    /** Where the procedure for changing a node list is written down. */
    static final String NODE_LIST_PROCEDURE = "change a node list with a transition configuration: first every client "
            + "with nodes = the new list and previousNodes = the list in use (its rounds need a quorum of both); once no "
            + "client of the old list is left and its records have expired, drop previousNodes. Step by step: "
            + "docs/deployments.md, 'Changing the node list'";

    /**
     * A WARN per standing membership record of {@code marker} that shares no list with the given list
     * ({@code listId}, {@code listSize} nodes): the nodes recently served clients of another node list, and a client
     * of the given list would be refused there ({@code MembershipConflictException}) until the record expires.
     */
    static List<Finding> membership(String node, MarkerState marker, String listId, int listSize) {
        List<Finding> out = new ArrayList<>();
        if (marker == null) return out;
        for (MembershipRecord r : marker.standingRecords()) {
            if (r.accepts(listId)) continue;
            out.add(new Finding("membership", Finding.Severity.WARN, node + " served clients of another node list in "
                    + "the last record window (" + r.describe() + "; stands " + r.standsMs() + " ms more): the node "
                    + "list given here (node list " + listId + ", " + listSize + " nodes) differs, and its clients "
                    + "would be refused there (MembershipConflictException) while old clients run; "
                    + NODE_LIST_PROCEDURE));
        }
        return out;
    }
}
