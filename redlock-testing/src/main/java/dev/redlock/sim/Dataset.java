package dev.redlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.luaj.vm2.LuaString;

/**
 * A node's keyspace as commands see it: expiry on the node's clock (a master deletes an expired key when a command
 * touches it and propagates the deletion, as Redis does lazily; a replica hides it and waits for the master's
 * deletion), every change propagated as an {@link Effect} to the node's replicas and append-only file, LRU access
 * stamps, the memory model and eviction. Not thread-safe.
 */
final class Dataset {
    /** What an empty Redis reports as used_memory, roughly: the model's baseline. */
    static final long BASE_MEMORY = 860_000;

    private final SimNode node;
    private Keyspace keys = new Keyspace();
    private long accessClock;
    long evictedKeys;
    long expiredKeys;
    /** Set by a write while a script runs (the scripting layer's OOM check applies only before the first write). */
    boolean wroteInScript;

    Dataset(SimNode node) {
        this.node = node;
    }

    Keyspace keyspace() {
        return keys;
    }

    void replace(Keyspace k) {
        keys = k;
    }

    /** The live entry of {@code key}, or null (missing or expired). Stamps it as used. */
    Entry lookup(LuaString key) {
        Entry e = keys.get(key);
        if (e == null) return null;
        if (e.expireAtMs >= 0 && e.expireAtMs <= node.clock().millis()) {
            if (node.isReplica()) return null;
            keys.remove(key);
            expiredKeys++;
            node.propagate(key, null);
            return null;
        }
        e.touched = ++accessClock;
        return e;
    }

    /** Stores a new entry for {@code key} and propagates it. */
    void put(LuaString key, Entry e) {
        e.touched = ++accessClock;
        keys.put(key, e);
        changed(key, e);
    }

    /** Deletes a live key; returns whether there was one. */
    boolean delete(LuaString key) {
        if (lookup(key) == null) return false;
        keys.remove(key);
        changed(key, null);
        return true;
    }

    /** Propagates the current state of a key a command changed in place (or null: deleted). */
    void changed(LuaString key, Entry current) {
        wroteInScript = true;
        node.propagate(key, current);
    }

    void flush() {
        keys.clear();
        wroteInScript = true;
        node.propagateFlush();
    }

    /** Live keys, in insertion order; nothing is deleted or stamped (what KEYS, SCAN and DBSIZE see). */
    List<LuaString> liveKeys() {
        long now = node.clock().millis();
        List<LuaString> out = new ArrayList<>();
        for (Map.Entry<LuaString, Entry> e : keys.entries()) if (!e.getValue().expiredAt(now)) out.add(e.getKey());
        return out;
    }

    /** The live entry of {@code key} or null, without deleting, stamping or propagating anything. */
    Entry peek(LuaString key) {
        Entry e = keys.get(key);
        return e == null || e.expiredAt(node.clock().millis()) ? null : e;
    }

    /** Deletes every expired key (a master loading its data at start does). */
    void reapExpired() {
        long now = node.clock().millis();
        List<LuaString> dead = new ArrayList<>();
        for (Map.Entry<LuaString, Entry> e : keys.entries()) if (e.getValue().expiredAt(now)) dead.add(e.getKey());
        for (LuaString k : dead) keys.remove(k);
    }

    long usedMemory() {
        return BASE_MEMORY + keys.bytes();
    }

    /**
     * Evicts keys by the node's policy until used memory is within maxmemory; returns false when it is still over
     * (nothing left that the policy may evict).
     */
    boolean makeRoom() {
        long max = node.maxmemory();
        if (max <= 0) return true;
        while (usedMemory() > max) {
            LuaString victim = victim(node.maxmemoryPolicy());
            if (victim == null) return false;
            keys.remove(victim);
            evictedKeys++;
            node.propagate(victim, null);
        }
        return true;
    }

    /** Evicts one key now, as the eviction policy would (the deletion is propagated); false when absent. */
    boolean evict(LuaString key) {
        if (keys.remove(key) == null) return false;
        evictedKeys++;
        node.propagate(key, null);
        return true;
    }

    private LuaString victim(String policy) {
        boolean volatileOnly = policy.startsWith("volatile-");
        LuaString best = null;
        long bestScore = Long.MAX_VALUE;
        List<LuaString> candidates = new ArrayList<>();
        for (Map.Entry<LuaString, Entry> e : keys.entries()) {
            Entry v = e.getValue();
            if (volatileOnly && v.expireAtMs < 0) continue;
            switch (policy) {
                case "noeviction" -> {
                    return null;
                }
                case "allkeys-random", "volatile-random" -> candidates.add(e.getKey());
                default -> {
                    long score = policy.equals("volatile-ttl") ? v.expireAtMs : v.touched;
                    if (score < bestScore) {
                        bestScore = score;
                        best = e.getKey();
                    }
                }
            }
        }
        if (!candidates.isEmpty()) return candidates.get(node.scheduler().random().nextInt(candidates.size()));
        return best;
    }
}
