package dev.redlock;

import dev.redlock.internal.Scripts;

/**
 * The Lua scripts the library runs on each node, with their SHA-1 so they can be sent by {@code EVALSHA}
 * (falling back to {@code EVAL} on {@code NOSCRIPT}).
 *
 * <p>Keys: {@code KEYS[1]} the lock key ({@code prefix + resource}); {@code KEYS[2]} the resource's fence entry
 * ({@code prefix + "__fence:" + resource}, a string with a TTL of {@link #FENCE_RETENTION_MS}, refreshed on every
 * write); {@code KEYS[3]} the node's marker ({@code prefix + "__node"}, a hash without TTL):
 * <ul>
 *   <li>{@code rid}: the identity of the memory the marker describes, the {@code master_replid}
 *       ({@code INFO replication}) of the process that wrote it, read by the script from the process running it on
 *       every ACQUIRE. A master's replication id is new after every restart (with or without persistence, a replica
 *       restarted as a master included) and after every promotion, a failback included. A missing marker or another
 *       replication id is a new identity (restart, restored backup, promoted replica, failback after a resync,
 *       FLUSHALL): the marker is rewritten with {@code born} = now (never 0 again: its fences read its clock from
 *       then on), the stored {@code hw} and {@code q} kept;</li>
 *   <li>{@code run}: the {@code run_id} ({@code INFO server}) of the process that wrote the marker, read only then:
 *       which process began this memory, for diagnostics;</li>
 *   <li>{@code born}: the node's time (ms) when this identity began; 0 = marked fresh (never held a lock);</li>
 *   <li>{@code hw}: the highest fence ever written on this node (high-water mark);</li>
 *   <li>{@code q}: the strictest restart quarantine (ms) any client asked for;</li>
 *   <li>{@code m:<list id>[+<previous list id>]}: the node's time (ms) until which a client of that membership
 *       counts as present (see {@link Membership}).</li>
 * </ul>
 * A fence read for a resource is {@code max(entry or hw, floor)}, where {@code floor} is the node's current time in
 * microseconds, or 0 on a node marked fresh: a lost entry (eviction, expiry) reads at least {@code hw}, and a lost
 * node (new identity) reads at least its clock. Numbers are Lua doubles, exact below 2^53 (microsecond timestamps
 * are about 1.8e15); every number written is formatted with {@code %.0f}, never {@code tostring} ({@code 1.7e+15}).
 * Every script reads before its first write, so an error (WRONGTYPE, OOM, READONLY) on the first write leaves
 * nothing behind.
 *
 * <p>The {@code _ALL} scripts do the same for several resources at once (a {@link MultiLease}), with their own key
 * layout (each says it). What a node does for a client (identity, membership, quarantine, holder fingerprint,
 * membership refresh, wake-up) is written once, in the fragments at the end, and concatenated into every script
 * that does it: a fix to one is a fix to all.
 */
enum LuaScript {
    /**
     * ARGV: owner, ttl ms, quarantine ms, token guess ('0' = none), guess cap us, fence retention ms, membership
     * field ('' = none), membership window ms. Returns {status, fence, memoryAgeMs, quarantineMs, holder, wrote,
     * nodeUs, conflict}: status 1 = granted, 0 = held by another owner, 2 = quarantined (memory began less than
     * {@code max(stored q, ARGV q)} ago), 3 = the node holds a standing record of a membership that shares no node
     * list with this client's ({@code conflict} names it; nothing is recorded for this client). A node that is not
     * a master answers with an error ({@code NOTMASTER}). The stored quarantine becomes the larger of the two and is
     * returned. The returned fence is the value read before any write. When granted and the guess exceeds that
     * fence and is at most the node's clock plus the cap, the guess is written as the resource's fence (and raises
     * hw) in the same atomic step as the grant, and {@code wrote} = 1 (one-round fencing, see AcquireRound). On
     * status 0, holder = the first 12 hex digits of SHA-1(current value) ('' if it is not a string): tells a waiter
     * whether one other owner holds a quorum (wait for its release) or the vote split, without revealing the owner
     * value itself. {@code nodeUs} is the node's clock, for this client's clock watch.
     */
    ACQUIRE(LuaScript.CLOCK_AND_IDENTITY + """
            local entry = tonumber(redis.call('GET', KEYS[2]))
            local mk, mine, window = KEYS[3], ARGV[7], ARGV[8]
            """ + LuaScript.MARKER + """
            local fence = entry or hw
            if born ~= 0 and nowUs > fence then fence = nowUs end
            if conflict ~= '' then return {3, fence, age, q, '', 0, nowUs, conflict} end
            if q > 0 and age < q then return {2, fence, age, q, '', 0, nowUs, ''} end
            if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              local guess = tonumber(ARGV[4])
              local wrote = 0
              if guess > fence and guess <= nowUs + tonumber(ARGV[5]) then
                redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[6])
                if guess > hw then redis.call('HSET', mk, 'hw', ARGV[4]) end
                wrote = 1
              end
              return {1, fence, age, q, '', wrote, nowUs, ''}
            end
            local held = KEYS[1]
            """ + LuaScript.HOLDER + """
            return {0, fence, age, q, cur, 0, nowUs, ''}
            """),

    /**
     * ARGV: owner, token, fence retention ms. Raises the resource's fence and the node's hw to the token if we still
     * hold the lock there; refreshes the entry's TTL.
     */
    WRITE_FENCE("""
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            local token = tonumber(ARGV[2])
            local cur = tonumber(redis.call('GET', KEYS[2]))
            if (not cur) or cur < token then
              redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
            else
              redis.call('PEXPIRE', KEYS[2], ARGV[3])
            end
            local hw = tonumber(redis.call('HGET', KEYS[3], 'hw'))
            if (not hw) or hw < token then redis.call('HSET', KEYS[3], 'hw', ARGV[2]) end
            return 1
            """),

    /**
     * ARGV: owner, ttl ms, membership field ('' = none), membership window ms; KEYS[2] the marker. Re-sets the TTL
     * only if we still hold the lock, and then keeps this client's membership record standing at least as long as
     * the lease (see {@link Membership}).
     */
    EXTEND("""
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            local mk = KEYS[2]
            """ + LuaScript.MEMBERSHIP_REFRESH + """
            return 1
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
              local channel = ARGV[2]
              """ + LuaScript.WAKE + """
            end
            return deleted
            """),

    /**
     * Marks a node without a marker as fresh: this process's identity (its run_id and replication id, read here),
     * born 0 (no quarantine, fence floor 0), hw 0, q 0. A node with a marker is left alone. A replica answers with an
     * error, as ACQUIRE does.
     */
    MARK_FRESH("""
            if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
            """ + LuaScript.IDENTITY + LuaScript.RUN_ID + """
            redis.call('HSET', KEYS[1], 'run', run, 'rid', rid, 'born', '0', 'hw', '0', 'q', '0')
            return 1
            """),

    /**
     * ACQUIRE for several resources at once, all or nothing. KEYS: the marker, then per resource its lock key and its
     * fence entry. ARGV: owner, ttl ms, quarantine ms, guess cap us, fence retention ms, membership field ('' =
     * none), membership window ms, then one token guess per resource ('0' = none). The node's part is ACQUIRE's, in
     * the same code: identity, {@code NOTMASTER}, membership record and refusal, quarantine; each resource's fence is
     * read as ACQUIRE reads one. Then, if no lock key exists, every lock key is set to the owner with the TTL and each
     * resource whose guess exceeds its fence and is at most the node's clock plus the cap gets the guess written as
     * its fence (hw raised to the largest); if any lock key exists, nothing is written but the marker. Returns
     * {status, fences, memoryAgeMs, quarantineMs, holder, wrote, nodeUs, conflict, held}: status, age, quarantine,
     * nodeUs and conflict as ACQUIRE's; {@code fences} and {@code wrote} one entry per resource, in KEYS order
     * ({@code wrote} empty unless granted); on status 0, {@code held} = the 1-based position of the first resource
     * whose lock key exists, and {@code holder} the fingerprint of its value (as ACQUIRE's).
     */
    ACQUIRE_ALL(LuaScript.CLOCK_AND_IDENTITY + """
            local n = (#KEYS - 1) / 2
            local entries = {}
            local taken = 0
            for j = 1, n do
              entries[j] = tonumber(redis.call('GET', KEYS[2 * j + 1]))
              if taken == 0 and redis.call('EXISTS', KEYS[2 * j]) == 1 then taken = j end
            end
            local mk, mine, window = KEYS[1], ARGV[6], ARGV[7]
            """ + LuaScript.MARKER + """
            local fences = {}
            for j = 1, n do
              local fence = entries[j] or hw
              if born ~= 0 and nowUs > fence then fence = nowUs end
              fences[j] = fence
            end
            if conflict ~= '' then return {3, fences, age, q, '', {}, nowUs, conflict, 0} end
            if q > 0 and age < q then return {2, fences, age, q, '', {}, nowUs, '', 0} end
            if taken > 0 then
              local held = KEYS[2 * taken]
              """ + LuaScript.HOLDER + """
              return {0, fences, age, q, cur, {}, nowUs, '', taken}
            end
            local wrote = {}
            local top = hw
            local cap = nowUs + tonumber(ARGV[4])
            for j = 1, n do
              redis.call('SET', KEYS[2 * j], ARGV[1], 'PX', ARGV[2])
              local guess = tonumber(ARGV[7 + j])
              wrote[j] = 0
              if guess > fences[j] and guess <= cap then
                redis.call('SET', KEYS[2 * j + 1], ARGV[7 + j], 'PX', ARGV[5])
                if guess > top then top = guess end
                wrote[j] = 1
              end
            end
            if top > hw then redis.call('HSET', mk, 'hw', string.format('%.0f', top)) end
            return {1, fences, age, q, '', wrote, nowUs, '', 0}
            """),

    /**
     * WRITE_FENCE for several resources. KEYS: the marker, then per resource its lock key and its fence entry. ARGV:
     * owner, fence retention ms, then one token per resource. Only if we still hold every lock key here: raises each
     * resource's fence to its token (refreshing the entry's TTL) and the node's hw to the largest token. Reads
     * everything before it writes. Returns 1, or 0 (nothing written) when a lock key holds another value.
     */
    WRITE_FENCE_ALL("""
            local n = (#KEYS - 1) / 2
            local cur = {}
            for j = 1, n do
              if redis.call('GET', KEYS[2 * j]) ~= ARGV[1] then return 0 end
              cur[j] = tonumber(redis.call('GET', KEYS[2 * j + 1]))
            end
            local hw = tonumber(redis.call('HGET', KEYS[1], 'hw'))
            local top = 0
            for j = 1, n do
              local token = tonumber(ARGV[2 + j])
              if (not cur[j]) or cur[j] < token then
                redis.call('SET', KEYS[2 * j + 1], ARGV[2 + j], 'PX', ARGV[2])
              else
                redis.call('PEXPIRE', KEYS[2 * j + 1], ARGV[2])
              end
              if token > top then top = token end
            end
            if (not hw) or hw < top then redis.call('HSET', KEYS[1], 'hw', string.format('%.0f', top)) end
            return 1
            """),

    /**
     * EXTEND for several resources. KEYS: the marker, then every lock key. ARGV as EXTEND's. Only if we still hold
     * every lock key here: re-sets each one's TTL and refreshes the membership record (as EXTEND does). Returns 1, or
     * 0 (nothing touched) when a lock key holds another value or is gone.
     */
    EXTEND_ALL("""
            for j = 2, #KEYS do
              if redis.call('GET', KEYS[j]) ~= ARGV[1] then return 0 end
            end
            for j = 2, #KEYS do redis.call('PEXPIRE', KEYS[j], ARGV[2]) end
            local mk = KEYS[1]
            """ + LuaScript.MEMBERSHIP_REFRESH + """
            return 1
            """),

    /**
     * RELEASE for several resources. KEYS: every lock key. ARGV: owner, publish ('0' = no), then one wake-up channel
     * per resource. Deletes each lock key that holds the owner (read first, then deleted); unless publish is '0',
     * tells the waiters of every resource's channel, as RELEASE does. Returns how many keys it deleted.
     */
    RELEASE_ALL("""
            local mine = {}
            for j = 1, #KEYS do mine[j] = redis.call('GET', KEYS[j]) == ARGV[1] end
            local deleted = 0
            for j = 1, #KEYS do
              if mine[j] then
                redis.call('DEL', KEYS[j])
                deleted = deleted + 1
              end
            end
            if ARGV[2] ~= '0' then
              for j = 3, #ARGV do
                local channel = ARGV[j]
                """ + LuaScript.WAKE + """
              end
            end
            return deleted
            """);

    /**
     * The node's identity, read from the process running the script: its replication id ({@code rid}); a node that is
     * not a master answers {@code NOTMASTER}. Part of ACQUIRE, ACQUIRE_ALL, MARK_FRESH. A master's replication id is
     * new after every start of its process (whether it reloads an RDB snapshot or replays its AOF, and also for a
     * replica restarted as a master: a server restores a saved replication id only while it is a replica) and after
     * every promotion, a failback included; so it alone tells one memory from another, and the costlier
     * {@code INFO server} is read only when the marker is rewritten ({@link #RUN_ID}).
     */
    private static final String IDENTITY = """
            local info = redis.call('INFO', 'replication')
            if not string.find(info, 'role:master', 1, true) then
              return redis.error_reply('NOTMASTER this node is a replica: Redlock needs independent masters')
            end
            local i = string.find(info, 'master_replid:', 1, true)
            local rid = string.sub(info, i + 14, i + 53)
            """;

    /**
     * The process's {@code run_id} ({@code run}), recorded in a marker when it is written, for diagnostics (which
     * process began this memory); the identity check itself compares the replication id ({@link #IDENTITY}).
     */
    private static final String RUN_ID = """
            local server = redis.call('INFO', 'server')
            local j = string.find(server, 'run_id:', 1, true)
            local run = string.sub(server, j + 7, j + 46)
            """;

    /** The start of ACQUIRE and ACQUIRE_ALL: the node's clock ({@code nowMs}, {@code nowUs}), then {@link #IDENTITY}. */
    private static final String CLOCK_AND_IDENTITY = """
            local t = redis.call('TIME')
            local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local nowUs = tonumber(t[1]) * 1000000 + tonumber(t[2])
            """ + LuaScript.IDENTITY;

    /**
     * The node's part of ACQUIRE and ACQUIRE_ALL, after their own reads: reads the marker {@code mk}, finds a
     * conflicting membership record of a client other than {@code mine} (field, '' = none), rewrites the marker on a
     * new identity, stores the larger quarantine (ARGV[3]), drops records that no longer stand, keeps this client's
     * record standing {@code window} ms (when the lease TTL, ARGV[2], would outlive it). Sets {@code born},
     * {@code hw}, {@code q}, {@code conflict} and {@code age}.
     */
    private static final String MARKER = """
            local m = redis.pcall('HGETALL', mk)
            local legacy = m['err'] ~= nil
            if legacy then m = {} end
            local h = {}
            for j = 1, #m, 2 do h[m[j]] = m[j + 1] end
            local born = tonumber(h['born'])
            local hw = tonumber(h['hw']) or 0
            local stored = tonumber(h['q']) or 0
            local q = math.max(stored, tonumber(ARGV[3]))
            local conflict = ''
            local stale = {}
            if mine ~= '' then
              local ids = {}
              for id in string.gmatch(string.sub(mine, 3), '[^+]+') do ids[id] = true end
              for j = 1, #m, 2 do
                local f = m[j]
                if f ~= mine and string.sub(f, 1, 2) == 'm:' then
                  if (tonumber(m[j + 1]) or 0) <= nowMs then
                    stale[#stale + 1] = f
                  elseif conflict == '' then
                    local shared = false
                    for id in string.gmatch(string.sub(f, 3), '[^+]+') do
                      if ids[id] then shared = true end
                    end
                    if not shared then conflict = string.sub(f, 3) end
                  end
                end
              end
            end
            if h['rid'] ~= rid or born == nil then
              born = nowMs
              """ + LuaScript.RUN_ID + """
              if legacy then redis.call('UNLINK', mk) end
              redis.call('HSET', mk, 'run', run, 'rid', rid, 'born', string.format('%.0f', born),
                'hw', string.format('%.0f', hw), 'q', string.format('%.0f', q))
            elseif q > stored then
              redis.call('HSET', mk, 'q', string.format('%.0f', q))
            end
            if #stale > 0 then redis.call('HDEL', mk, unpack(stale)) end
            if mine ~= '' and conflict == '' and (tonumber(h[mine]) or 0) < nowMs + tonumber(ARGV[2]) then
              redis.call('HSET', mk, mine, string.format('%.0f', nowMs + tonumber(window)))
            end
            local age = nowMs - born
            """;

    /** The fingerprint ({@code cur}) of the value under key {@code held}: ACQUIRE's and ACQUIRE_ALL's holder. */
    private static final String HOLDER = """
            local cur = redis.pcall('GET', held)
            if type(cur) ~= 'string' then cur = '' else cur = string.sub(redis.sha1hex(cur), 1, 12) end
            """;

    /**
     * EXTEND's and EXTEND_ALL's membership refresh on the marker {@code mk}: keeps this client's record (ARGV[3], ''
     * = none) standing at least the new TTL (ARGV[2]), for the window (ARGV[4]).
     */
    private static final String MEMBERSHIP_REFRESH = """
            if ARGV[3] ~= '' then
              local t = redis.call('TIME')
              local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
              local stands = tonumber(redis.pcall('HGET', mk, ARGV[3]))
              if (stands or 0) < nowMs + tonumber(ARGV[2]) then
                redis.pcall('HSET', mk, ARGV[3], string.format('%.0f', nowMs + tonumber(ARGV[4])))
              end
            end
            """;

    /** RELEASE's and RELEASE_ALL's wake-up: the number of waiters subscribed to {@code channel}, published there. */
    private static final String WAKE = """
            local waiting = redis.call('PUBSUB', 'NUMSUB', channel)[2]
            if waiting > 0 then redis.call('PUBLISH', channel, tostring(waiting)) end
            """;

    /** How long a resource's fence entry outlives its last write (see README: fences). */
    static final long FENCE_RETENTION_MS = 10 * 60 * 1000;

    /** {@link #FENCE_RETENTION_MS} as the scripts' argument. */
    static final String FENCE_RETENTION_ARG = Long.toString(FENCE_RETENTION_MS);

    private final String source;
    private final String sha;

    LuaScript(String source) {
        this.source = source;
        this.sha = Scripts.sha1(source);
    }

    String source() {
        return source;
    }

    String sha() {
        return sha;
    }
}
