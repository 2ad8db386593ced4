package dev.redlock;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The Lua scripts the library runs on each node, with their SHA-1 so they can be sent by {@code EVALSHA}
 * (falling back to {@code EVAL} on {@code NOSCRIPT}).
 *
 * <p>Keys: {@code KEYS[1]} the lock key ({@code prefix + resource}), {@code KEYS[2]} the node's fence hash
 * ({@code prefix + "__fences"}, field = resource, no TTL), {@code KEYS[3]} the node's memory marker
 * ({@code prefix + "__node"}, no TTL: milliseconds since the epoch at which this node's memory began, 0 for a node
 * marked fresh). Every script reads before it writes, so an error (WRONGTYPE, OOM, ...) leaves nothing behind.
 */
enum LuaScript {
    /**
     * ARGV: owner, ttl ms, quarantine ms, resource[, token guess]. Returns {status, fence, memoryAgeMs[, holder]}:
     * status 1 = granted, 0 = held by another owner, 2 = quarantined (memory began less than quarantine ago). The
     * fence of a resource unknown to the node reads as a floor derived from when the node's memory began
     * (microseconds), so a node that lost its memory never makes tokens go backwards. The returned fence is the
     * value read before any write. When granted and the guess exceeds that fence, the guess is written as the new
     * fence in the same atomic step as the grant (one-round fencing, see AcquireRound); '0' or absent = no guess. On status 0, holder = the first 12 hex digits
     * of SHA-1(current value) ('' if it is not a string): tells a waiter whether one other owner holds a quorum
     * (wait for its release) or the vote split, without revealing the owner value itself.
     */
    ACQUIRE("""
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local born = tonumber(redis.call('GET', KEYS[3]))
            local fence = redis.call('HGET', KEYS[2], ARGV[4])
            if born == nil then
              born = now
              redis.call('SET', KEYS[3], born)
            end
            if fence then fence = tonumber(fence) else fence = born * 1000 end
            local q = tonumber(ARGV[3])
            if q > 0 and now - born < q then return {2, fence, now - born} end
            if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              local guess = tonumber(ARGV[5] or '0')
              if guess > fence then redis.call('HSET', KEYS[2], ARGV[4], ARGV[5]) end
              return {1, fence, now - born}
            end
            local cur = redis.pcall('GET', KEYS[1])
            if type(cur) ~= 'string' then cur = '' else cur = string.sub(redis.sha1hex(cur), 1, 12) end
            return {0, fence, now - born, cur}
            """),

    /** ARGV: owner, token, resource. Raises the node's fence to the token if we still hold the lock there. */
    WRITE_FENCE("""
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            local cur = redis.call('HGET', KEYS[2], ARGV[3])
            if (not cur) or tonumber(cur) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[2], ARGV[3], ARGV[2]) end
            return 1
            """),

    /** ARGV: owner, ttl ms. Re-sets the TTL only if we still hold the lock. */
    EXTEND("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              return 1
            end
            return 0
            """),

    /**
     * ARGV: owner, wake-up channel[, publish]. Deletes the lock only if we hold it. Unless publish is '0' (the
     * cleanup of a failed round: waking waiters then would only make them collide), tells the waiters subscribed
     * on this node, whether or not our key was here (a waiter listens on one node, which need not be one of the
     * holder's quorum); the message is their number, so they can spread their rounds.
     */
    RELEASE("""
            local deleted = 0
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
              deleted = 1
            end
            if ARGV[3] ~= '0' then
              local waiting = redis.call('PUBSUB', 'NUMSUB', ARGV[2])[2]
              if waiting > 0 then redis.call('PUBLISH', ARGV[2], tostring(waiting)) end
            end
            return deleted
            """),

    /** Marks a node whose memory marker is missing as fresh (memory began at 0: no quarantine, fence floor 0). */
    MARK_FRESH("""
            if redis.call('SET', KEYS[1], '0', 'NX') then return 1 end
            return 0
            """);

    private final String source;
    private final String sha;

    LuaScript(String source) {
        this.source = source;
        this.sha = sha1(source);
    }

    String source() {
        return source;
    }

    String sha() {
        return sha;
    }

    private static String sha1(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
