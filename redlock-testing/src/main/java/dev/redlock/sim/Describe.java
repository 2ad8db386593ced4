package dev.redlock.sim;

import java.util.List;
import org.luaj.vm2.LuaString;

/** Short, deterministic text of commands and replies for the trace. */
final class Describe {
    private static final int MAX_ARG = 24;

    private Describe() {}

    static String command(LuaString[] args) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            if (i > 0) b.append(' ');
            String a = LuaBridge.utf8(args[i]);
            b.append(a.length() > MAX_ARG ? a.substring(0, MAX_ARG) + "~" + a.length() : a);
        }
        return b.toString();
    }

    static String reply(Object r) {
        if (r == null) return "nil";
        if (r instanceof Long l) return ":" + l;
        if (r instanceof LuaString s) {
            String t = LuaBridge.utf8(s).replace("\r\n", "|");
            return "$" + (t.length() > 60 ? t.substring(0, 60) + "~" + t.length() : t);
        }
        if (r instanceof StatusReply st) return "+" + st.text();
        if (r instanceof ErrorReply e) return "-" + e.text();
        StringBuilder b = new StringBuilder("[");
        List<?> l = (List<?>) r;
        for (int i = 0; i < l.size(); i++) b.append(i > 0 ? "," : "").append(reply(l.get(i)));
        return b.append(']').toString();
    }
}
