package dev.redlock.doctor;

import dev.redlock.internal.Failures;
import dev.redlock.internal.resp.RedisErrorException;
import java.util.Locale;

/**
 * The harmless form of each command the library sends, for the permission probe ({@link CommandCheck}). Redis (6.2
 * and 7.x alike) checks the ACL (command, keys, channels) before anything else a command does, so a probe that the
 * server rejects after that check, or that finds nothing to act on, shows the permission and changes nothing:
 * an unknown script SHA ({@code NOSCRIPT}), a key that does not exist, an expiry of 0 or an odd field list (rejected
 * when the command runs, after the check), a channel nobody listens on. {@code SUBSCRIBE} is probed on the
 * subscriber connection and undone at once.
 */
final class Probes {
    /** No script has this SHA. */
    static final String UNKNOWN_SHA = "ffffffffffffffffffffffffffffffffffffffff";
    /** The script of the EVAL and SCRIPT LOAD probes. */
    static final String TRIVIAL_SCRIPT = "return 1";

    private Probes() {}

    /**
     * The probe for {@code command} ({@code SUBSCRIBE} excepted, see the class comment); null when no harmless form
     * is known (the check is then {@link CommandCheck.Status#UNKNOWN}).
     *
     * @param key     a key under the library's prefix that does not exist
     * @param channel a channel under the library's prefix nobody listens on
     */
    static Object[] form(String command, String key, String channel) {
        return switch (command) {
            case "INFO" -> new Object[] {"INFO", "server"};
            case "TIME" -> new Object[] {"TIME"};
            case "EVALSHA" -> new Object[] {"EVALSHA", UNKNOWN_SHA, "1", key};   // NOSCRIPT: runs nothing
            case "EVAL" -> new Object[] {"EVAL", TRIVIAL_SCRIPT, "1", key};
            case "SCRIPT LOAD" -> new Object[] {"SCRIPT", "LOAD", TRIVIAL_SCRIPT};
            case "CONFIG GET" -> new Object[] {"CONFIG", "GET", "maxmemory-policy"};
            case "EXISTS", "GET", "DEL", "UNLINK" -> new Object[] {command, key};   // no such key: nothing to do
            case "HGET" -> new Object[] {"HGET", key, "run"};
            case "HMGET" -> new Object[] {"HMGET", key, "run", "born"};
            case "HGETALL" -> new Object[] {"HGETALL", key};                     // no such key: empty
            case "HDEL" -> new Object[] {"HDEL", key, "m:x"};                    // no such key: 0
            case "HSET" -> new Object[] {"HSET", key, "run", "x", "born"};      // odd field list: refused when run
            case "SET" -> new Object[] {"SET", key, "x", "PX", "0"};            // expiry 0: refused when run
            case "PEXPIRE" -> new Object[] {"PEXPIRE", key, "1000"};            // no such key: 0
            case "PUBSUB NUMSUB" -> new Object[] {"PUBSUB", "NUMSUB", channel};
            case "PUBLISH" -> new Object[] {"PUBLISH", channel, "0"};           // nobody listens on it
            case "UNSUBSCRIBE" -> new Object[] {"UNSUBSCRIBE", channel};        // not subscribed: a confirmation
            default -> null;
        };
    }

    /** What a probe's failure means: {@code NOPERM} denied, an unknown command unavailable, anything else permitted. */
    static CommandCheck.Status classify(Throwable failure) {
        Throwable t = Failures.unwrap(failure);
        if (!(t instanceof RedisErrorException)) return CommandCheck.Status.UNKNOWN;
        String m = String.valueOf(t.getMessage());
        if (m.startsWith("NOPERM")) return CommandCheck.Status.DENIED;
        if (m.toLowerCase(Locale.ROOT).startsWith("err unknown command")) return CommandCheck.Status.UNAVAILABLE;
        return CommandCheck.Status.PERMITTED;   // rejected after the permission check (NOSCRIPT, WRONGTYPE, OOM, ...)
    }
}
