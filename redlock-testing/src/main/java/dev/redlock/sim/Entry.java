package dev.redlock.sim;

import java.util.LinkedHashMap;
import java.util.Map;
import org.luaj.vm2.LuaString;

/**
 * One key's value: a string ({@link LuaString}, binary-safe) or a hash (insertion-ordered, as a small Redis hash
 * is), with an absolute expiry in the owning node's clock (ms; -1 = none) and an access stamp for LRU eviction.
 */
final class Entry {
    Object value;
    long expireAtMs;
    long touched;

    Entry(Object value, long expireAtMs) {
        this.value = value;
        this.expireAtMs = expireAtMs;
    }

    static Entry string(LuaString v, long expireAtMs) {
        return new Entry(v, expireAtMs);
    }

    static Entry newHash() {
        return new Entry(new LinkedHashMap<LuaString, LuaString>(), -1);
    }

    boolean isString() {
        return value instanceof LuaString;
    }

    LuaString string() {
        return (LuaString) value;
    }

    @SuppressWarnings("unchecked")
    LinkedHashMap<LuaString, LuaString> hash() {
        return (LinkedHashMap<LuaString, LuaString>) value;
    }

    boolean expiredAt(long nowMs) {
        return expireAtMs >= 0 && expireAtMs <= nowMs;
    }

    /** An independent copy (a hash's map is copied; strings are immutable). */
    Entry copy() {
        Entry e = new Entry(isString() ? value : new LinkedHashMap<>(hash()), expireAtMs);
        e.touched = touched;
        return e;
    }

    /** Rough bytes, for the memory model: key + value + a fixed overhead per key and per hash field. */
    long bytes(LuaString key) {
        long n = 56 + key.length();
        if (isString()) return n + string().length();
        for (Map.Entry<LuaString, LuaString> f : hash().entrySet()) n += 24 + f.getKey().length() + f.getValue().length();
        return n;
    }

    String typeName() {
        return isString() ? "string" : "hash";
    }
}
