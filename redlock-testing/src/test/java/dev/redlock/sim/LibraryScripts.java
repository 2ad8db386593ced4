package dev.redlock.sim;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The library's own Lua sources, read reflectively from redlock-core (the enum {@code dev.redlock.LuaScript} and
 * the fenced store's write script are package-private): the tests run exactly what the library sends, never a copy.
 */
final class LibraryScripts {
    private static final Map<String, String> SOURCES = load();

    private LibraryScripts() {}

    /** By name: ACQUIRE, WRITE_FENCE, EXTEND, RELEASE, MARK_FRESH, FENCED_WRITE. */
    static Map<String, String> all() {
        return SOURCES;
    }

    static String source(String name) {
        String s = SOURCES.get(name);
        if (s == null) throw new IllegalArgumentException("no library script " + name + " (have " + SOURCES.keySet() + ")");
        return s;
    }

    private static Map<String, String> load() {
        try {
            Map<String, String> out = new LinkedHashMap<>();
            Class<?> lua = Class.forName("dev.redlock.LuaScript");
            Method source = lua.getDeclaredMethod("source");
            source.setAccessible(true);
            for (Object s : lua.getEnumConstants()) out.put(((Enum<?>) s).name(), (String) source.invoke(s));
            Field write = Class.forName("dev.redlock.fencing.FencedRedisStore").getDeclaredField("WRITE_SCRIPT");
            write.setAccessible(true);
            out.put("FENCED_WRITE", (String) write.get(null));
            return Map.copyOf(out);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the library's scripts from redlock-core", e);
        }
    }
}
