package dev.redlock.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.LuaString;

/** Conversions between the node's reply objects and what {@code NodeTransport} callers get. */
final class Replies {
    private Replies() {}

    static LuaString[] args(String... args) {
        if (args.length == 0) throw new IllegalArgumentException("a command needs at least its name");
        LuaString[] a = new LuaString[args.length];
        for (int i = 0; i < args.length; i++) a[i] = bytes(args[i]);
        return a;
    }

    /** UTF-8 bytes as a Lua string (the JDK's encoder has a fast path for ASCII text, LuaJ's has not). */
    static LuaString bytes(String s) {
        return LuaString.valueUsing(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code Long}, {@code String} (bulk and status), {@code List<Object>} (recursively), null.
     *
     * @throws SimRedisException for an error reply
     */
    static Object toTransport(Object reply) {
        if (reply instanceof ErrorReply e) throw new SimRedisException(e.text());
        return plain(reply);
    }

    private static Object plain(Object reply) {
        if (reply == null || reply instanceof Long) return reply;
        if (reply instanceof LuaString s) return LuaBridge.utf8(s);
        if (reply instanceof StatusReply st) return st.text();
        if (reply instanceof ErrorReply e) return e.text();
        List<?> list = (List<?>) reply;
        List<Object> out = new ArrayList<>(list.size());
        for (Object o : list) out.add(plain(o));
        return out;
    }
}
