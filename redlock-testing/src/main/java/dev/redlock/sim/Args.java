package dev.redlock.sim;

import org.luaj.vm2.LuaString;

/** Argument parsing as Redis does it ({@code string2ll}: no spaces, no '+', no leading zeros, 64-bit range). */
final class Args {
    private Args() {}

    /** The integer {@code s} spells exactly, or null. */
    static Long parseLong(LuaString s) {
        int len = s.m_length;
        if (len == 0 || len > 20) return null;
        byte[] b = s.m_bytes;
        int p = s.m_offset;
        int end = p + len;
        if (len == 1 && b[p] == '0') return 0L;
        boolean negative = b[p] == '-';
        if (negative) {
            p++;
            if (p == end) return null;
        }
        if (b[p] < '1' || b[p] > '9') return null;
        long v = 0;
        for (; p < end; p++) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) return null;
            if (v < (Long.MIN_VALUE + d) / 10) return null;
            v = v * 10 - d;             // accumulate negatively: Long.MIN_VALUE fits
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) return null;
            return -v;
        }
        return v;
    }

    /** Redis's reply to a command it does not know (6.2 and 7.x word it differently). */
    static ErrorReply unknownCommand(LuaString[] args, boolean v7) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < args.length && b.length() < 128; i++) {
            String a = LuaBridge.utf8(args[i]);
            a = a.substring(0, Math.min(a.length(), 128 - b.length()));
            b.append(v7 ? "'" + a + "' " : "`" + a + "`, ");
        }
        String cmd = LuaBridge.utf8(args[0]);
        return new ErrorReply(v7 ? "ERR unknown command '" + cmd + "', with args beginning with: " + b
                : "ERR unknown command `" + cmd + "`, with args beginning with: " + b);
    }

    static ErrorReply wrongArity(String command) {
        return new ErrorReply("ERR wrong number of arguments for '" + command + "' command");
    }
}
