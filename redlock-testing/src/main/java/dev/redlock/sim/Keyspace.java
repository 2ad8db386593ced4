package dev.redlock.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.luaj.vm2.LuaString;

/**
 * The keys of one node (database 0), in insertion order so iteration is deterministic. Knows nothing of clocks or
 * roles: expiry is decided by the caller. Not thread-safe (a simulation runs on one thread).
 */
final class Keyspace {
    private final LinkedHashMap<LuaString, Entry> map;

    Keyspace() {
        this.map = new LinkedHashMap<>();
    }

    private Keyspace(LinkedHashMap<LuaString, Entry> map) {
        this.map = map;
    }

    Entry get(LuaString key) {
        return map.get(key);
    }

    void put(LuaString key, Entry e) {
        map.put(key, e);
    }

    Entry remove(LuaString key) {
        return map.remove(key);
    }

    int size() {
        return map.size();
    }

    void clear() {
        map.clear();
    }

    Iterable<Map.Entry<LuaString, Entry>> entries() {
        return map.entrySet();
    }

    List<LuaString> keys() {
        return new ArrayList<>(map.keySet());
    }

    /** A deep copy (what a snapshot, a full sync or a restart from disk starts from). */
    Keyspace copy() {
        LinkedHashMap<LuaString, Entry> m = new LinkedHashMap<>(Math.max(16, map.size() * 2));
        for (Map.Entry<LuaString, Entry> e : map.entrySet()) m.put(e.getKey(), e.getValue().copy());
        return new Keyspace(m);
    }

    /** Applies one replicated or logged change: the key's new state (a copy is stored), or its deletion. */
    void apply(Effect e) {
        if (e.key() == null) {
            map.clear();
        } else if (e.state() == null) {
            map.remove(e.key());
        } else {
            map.put(e.key(), e.state().copy());
        }
    }

    long bytes() {
        long n = 0;
        for (Map.Entry<LuaString, Entry> e : map.entrySet()) n += e.getValue().bytes(e.getKey());
        return n;
    }
}
