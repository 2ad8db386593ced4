package dev.redlock.chaos.scenario;

import dev.redlock.testkit.RedisProcess;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A replica's state as the two servers report it ({@code INFO replication}), for set-ups that need a replica in
 * sync: waited on, never assumed after a delay.
 */
final class Replication {
    /** How long a first sync may take before the set-up has failed (a full sync on loopback takes well under 1 s). */
    static final Duration SYNC_WAIT = Duration.ofSeconds(10);

    private Replication() {}

    /**
     * Whether {@code replica} is in sync with {@code master}: its link is up, no sync is in progress, its
     * replication offset has reached the master's, and it holds the master's marker (its high-water mark {@code hw}).
     */
    static boolean inSync(RedisProcess master, RedisProcess replica, String markerKey) {
        Map<String, String> r = fields(replica.command("INFO", "replication"));
        if (!"up".equals(r.get("master_link_status")) || !"0".equals(r.get("master_sync_in_progress"))) return false;
        long replicaOffset = offset(r);
        long masterOffset = offset(fields(master.command("INFO", "replication")));
        return replicaOffset >= 0 && replicaOffset >= masterOffset
                && replica.command("HGET", markerKey, "hw").equals(master.command("HGET", markerKey, "hw"));
    }

    /**
     * Waits until {@code replica} is {@linkplain #inSync in sync} with {@code master} (named {@code what}).
     *
     * @throws IllegalStateException as a set-up failure, with both servers' state, when it is not within
     *                               {@link #SYNC_WAIT}
     */
    static void awaitSync(RedisProcess master, RedisProcess replica, String markerKey, String what) {
        if (!ScenarioContext.await(() -> inSync(master, replica, markerKey), SYNC_WAIT)) {
            throw new IllegalStateException("scenario set-up failed: the replica did not sync with " + what + " within "
                    + SYNC_WAIT.toSeconds() + " s: " + state(master, replica));
        }
    }

    /** The replica's link, sync and offsets against the master's, for messages. */
    static String state(RedisProcess master, RedisProcess replica) {
        Map<String, String> r = fields(replica.command("INFO", "replication"));
        return "link " + r.get("master_link_status") + ", sync in progress " + r.get("master_sync_in_progress")
                + ", replica offset " + offset(r) + ", master offset "
                + offset(fields(master.command("INFO", "replication")));
    }

    /** {@code master_repl_offset}: on a replica, how far it has applied its master's stream; -1 when absent. */
    private static long offset(Map<String, String> info) {
        String o = info.get("master_repl_offset");
        return o == null ? -1 : Long.parseLong(o);
    }

    private static Map<String, String> fields(String info) {
        Map<String, String> out = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) out.put(line.substring(0, colon), line.substring(colon + 1).trim());
        }
        return out;
    }
}
