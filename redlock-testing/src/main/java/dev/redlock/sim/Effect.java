package dev.redlock.sim;

import org.luaj.vm2.LuaString;

/**
 * One change of a node's data as its replicas and its append-only file receive it: a key's whole new state (value
 * and absolute expiry; a private copy) or its deletion ({@code state == null}), or a flush of everything
 * ({@code key == null}). Like Redis 7's effect replication with absolute expiry times ({@code PXAT}).
 */
record Effect(LuaString key, Entry state) {
    static final Effect FLUSH = new Effect(null, null);

    static Effect of(LuaString key, Entry current) {
        return new Effect(key, current == null ? null : current.copy());
    }
}
