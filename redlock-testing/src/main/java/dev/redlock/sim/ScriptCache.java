package dev.redlock.sim;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.compiler.LuaC;

/**
 * Scripts compiled once per JVM: by body (so an {@code EVAL} of a known body costs a map lookup, not a SHA-1) and
 * by SHA-1. Shared by every node and thread (a compiled prototype is never modified after compilation); which
 * scripts a node has loaded is the node's own set.
 */
final class ScriptCache {
    /** One script body: its SHA-1 (text and as the bytes EVALSHA sends), its prototype, or its compile error. */
    record Compiled(String sha, LuaString shaKey, Prototype prototype, ErrorReply error) {}

    private static final Map<LuaString, Compiled> BY_BODY = new ConcurrentHashMap<>();
    private static final int MAX_BODIES = 10_000;

    private ScriptCache() {}

    static Compiled of(LuaString body) {
        Compiled c = BY_BODY.get(body);
        if (c != null) return c;
        String sha = LuaBridge.current().sha1hex(body);
        c = compile(sha, body);
        if (BY_BODY.size() < MAX_BODIES) BY_BODY.put(body, c);
        return c;
    }

    /** A SHA-1 argument as scripts are keyed ({@code EVALSHA} accepts any case). */
    static LuaString key(LuaString sha) {
        for (int i = 0; i < sha.m_length; i++) {
            byte b = sha.m_bytes[sha.m_offset + i];
            if (b >= 'A' && b <= 'Z') return LuaString.valueOf(LuaBridge.utf8(sha).toLowerCase(Locale.ROOT));
        }
        return sha;
    }

    private static Compiled compile(String sha, LuaString body) {
        LuaString key = LuaString.valueOf(sha);
        try {
            Prototype p = LuaC.instance.compile(new ByteArrayInputStream(body.m_bytes, body.m_offset, body.m_length), "user_script");
            withoutTailCalls(p);
            LuaBridge.canonicalConstants(p);
            return new Compiled(sha, key, p, null);
        } catch (IOException | LuaError e) {
            return new Compiled(sha, key, null, new ErrorReply("ERR Error compiling script (new function): " + LuaBridge.position(e.getMessage())));
        }
    }

    /**
     * Turns every tail call into a plain call (the {@code RETURN A 0} the compiler puts after it returns the same
     * values): LuaJ runs a tail call after the calling function has returned, so an error raised in it would carry no
     * line number, where Redis's Lua reports the line of the {@code return redis.call(...)}.
     */
    private static Prototype withoutTailCalls(Prototype p) {
        for (int i = 0; i < p.code.length; i++) {
            if (Lua.GET_OPCODE(p.code[i]) == Lua.OP_TAILCALL) p.code[i] = (p.code[i] & ~Lua.MASK_OP) | Lua.OP_CALL;
        }
        for (Prototype child : p.p) withoutTailCalls(child);
        return p;
    }
}
