package dev.redlock.sim.simulator;

import dev.redlock.sim.SimNode;
import dev.redlock.sim.SimTransport;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The fenced registers the workload's holders update, one per resource (tokens are per resource): a read-modify-write counter on a node of its own (never
 * faulted: it stands for the application's database), whose reads and writes both present the holder's fencing
 * token. A token below the highest one presented so far is refused; an accepted one raises it. So once a newer
 * holder has read, an older holder can no longer write, and with tokens that strictly increase across holders every
 * accepted write is applied over the value its writer read: the register's history is linearizable as a sequence of
 * increments. A write applied over another value (a lost update: two holders with the same token, or a token that
 * went backwards) is counted by the script itself, on the node, with what happened: {@link #lostUpdates} reads it
 * from the node's truth at every step.
 */
final class Register {
    /** The register of {@code resource}'s holders. */
    static String key(String resource) {
        return "register:" + resource;
    }

    /** KEYS[1] the register; ARGV: op ('r' or 'w'), token, value read (w), who (w). */
    static final String SCRIPT = """
            local fence = tonumber(redis.call('HGET', KEYS[1], 'fence') or '0')
            local token = tonumber(ARGV[2])
            if token < fence then return {0, string.format('%.0f', fence)} end
            if token > fence then redis.call('HSET', KEYS[1], 'fence', ARGV[2]) end
            local value = tonumber(redis.call('HGET', KEYS[1], 'value') or '0')
            if ARGV[1] == 'r' then return {1, value} end
            if value ~= tonumber(ARGV[3]) then
              redis.call('HINCRBY', KEYS[1], 'lost', 1)
              redis.call('HSET', KEYS[1], 'lastLost', ARGV[4] .. ' with token ' .. ARGV[2] .. ' read ' .. ARGV[3]
                .. ' but wrote over ' .. value .. ' (written by ' .. (redis.call('HGET', KEYS[1], 'by') or '?') .. ')')
            end
            redis.call('HSET', KEYS[1], 'value', value + 1, 'by', ARGV[4] .. ' token ' .. ARGV[2])
            return {1, value + 1}
            """;

    private Register() {}

    /** A fenced read: the value, or -1 when the token was refused (completes exceptionally on a network failure). */
    static CompletableFuture<Long> read(SimTransport store, String resource, long token) {
        return store.command("EVAL", SCRIPT, "1", key(resource), "r", Long.toString(token), "0", "")
                .thenApply(r -> accepted(r) ? ((Number) ((List<?>) r).get(1)).longValue() : -1L);
    }

    /** A fenced write of {@code read + 1}: true when accepted. */
    static CompletableFuture<Boolean> write(SimTransport store, String resource, long token, long read, String who) {
        return store.command("EVAL", SCRIPT, "1", key(resource), "w", Long.toString(token), Long.toString(read), who)
                .thenApply(Register::accepted);
    }

    private static boolean accepted(Object reply) {
        return ((Number) ((List<?>) reply).get(0)).longValue() == 1;
    }

    /** Lost updates the node has counted so far (its own truth, read without side effects). */
    static long lostUpdates(SimNode store, String resource) {
        Object h = store.peek(key(resource));
        if (!(h instanceof Map<?, ?> m) || m.get("lost") == null) return 0;
        return Long.parseLong((String) m.get("lost"));
    }

    /** What the last lost update was, as the node recorded it. */
    static String lastLost(SimNode store, String resource) {
        Object h = store.peek(key(resource));
        return h instanceof Map<?, ?> m ? String.valueOf(m.get("lastLost")) : "";
    }
}
