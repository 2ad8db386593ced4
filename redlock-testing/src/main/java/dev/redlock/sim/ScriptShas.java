package dev.redlock.sim;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.luaj.vm2.LuaString;

/** The SHA-1 of script bodies, remembered per body so an {@code EVAL} of a known body costs a map lookup. */
final class ScriptShas {
    private static final Map<LuaString, String> KNOWN = new ConcurrentHashMap<>();

    private ScriptShas() {}

    static String of(LuaString body) {
        String sha = KNOWN.get(body);
        if (sha == null) {
            sha = LuaBridge.current().sha1hex(body);
            if (KNOWN.size() < 10_000) KNOWN.put(body, sha);
        }
        return sha;
    }
}
