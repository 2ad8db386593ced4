package dev.redlock.sim;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the differential test compares a real server's reply with the model's. Exact, except where time enters: an
 * integer (or an integer string) that the model computes differently on a probe node whose clock runs at another
 * rate and offset is time-derived (a fence floor in microseconds, a marker's birth in milliseconds, an age), and
 * may differ from the real server's by the latency between the two clock readings. And a Lua runtime or compile
 * error (LuaJ's message text differs from PUC Lua's) matches on its shape: the same script, the same line.
 */
final class ReplyComparison {
    /** Microsecond timestamps are above this. */
    private static final long MICROS = 100_000_000_000_000L;
    private static final long TOLERANCE_US = 300_000;
    private static final long TOLERANCE_MS = 300;
    private static final Pattern RUNTIME_7 = Pattern.compile("^ERR user_script:(\\d+): .* script: ([0-9a-f]{40}), on @user_script:(\\d+)\\.$", Pattern.DOTALL);
    private static final Pattern RUNTIME_62 = Pattern.compile("^ERR Error running script \\(call to f_([0-9a-f]{40})\\): @user_script:(\\d+): user_script:(\\d+): .*$", Pattern.DOTALL);

    private static final Pattern COMPILE = Pattern.compile("^ERR Error compiling script \\(new function\\): user_script:(\\d+): .*$", Pattern.DOTALL);

    int toleratedTimes;
    int toleratedLuaMessages;
    int toleratedClockOutcomes;

    private ReplyComparison() {}

    static ReplyComparison create() {
        return new ReplyComparison();
    }

    /** Null when {@code real} matches {@code model} ({@code probe} = the model on a skewed clock), else why not. */
    String mismatch(Object real, Object model, Object probe) {
        if (real == null || model == null) return real == model ? null : "nil on one side only";
        if (real instanceof ErrorReply re && model instanceof ErrorReply me) return errors(re.text(), me.text());
        if (real instanceof StatusReply rs && model instanceof StatusReply ms) return rs.equals(ms) ? null : "status differs";
        if (real instanceof Long rl && model instanceof Long ml) return integers(rl, ml, probe instanceof Long pl ? pl : null);
        if (real instanceof String rs && model instanceof String ms) {
            if (rs.equals(ms)) return null;
            Long rl = number(rs);
            Long ml = number(ms);
            if (rl != null && ml != null) return integers(rl, ml, probe instanceof String ps ? number(ps) : null);
            return "strings differ";
        }
        if (real instanceof List<?> rl && model instanceof List<?> ml) {
            if (rl.size() != ml.size()) return "array sizes differ";
            List<?> pl = probe instanceof List<?> p && p.size() == ml.size() ? p : null;
            for (int i = 0; i < rl.size(); i++) {
                String m = mismatch(rl.get(i), ml.get(i), pl == null ? null : pl.get(i));
                if (m != null) return "[" + i + "] " + m;
            }
            return null;
        }
        boolean realFailed = real instanceof ErrorReply;
        boolean modelFailed = model instanceof ErrorReply;
        if (realFailed != modelFailed && probe != null && (probe instanceof ErrorReply) != modelFailed) {
            // the model itself fails on one clock and not on the other (a script with a missing argument that it only
            // reads when two millisecond readings compare one way): which one the real server took depends on where
            // its millisecond boundaries fell, which no harness can line up
            toleratedClockOutcomes++;
            return null;
        }
        return "types differ (" + real.getClass().getSimpleName() + " vs " + model.getClass().getSimpleName() + ")";
    }

    private String integers(long real, long model, Long probe) {
        if (real == model) return null;
        if (probe == null || probe == model) return "integers differ";
        long tolerance = Math.abs(model) >= MICROS ? TOLERANCE_US : TOLERANCE_MS;
        if (Math.abs(real - model) <= tolerance) {
            toleratedTimes++;
            return null;
        }
        return "time-derived integers differ by " + (real - model) + " (more than " + tolerance + ")";
    }

    private String errors(String real, String model) {
        if (real.equals(model)) return null;
        Matcher r7 = RUNTIME_7.matcher(real);
        Matcher m7 = RUNTIME_7.matcher(model);
        if (r7.matches() && m7.matches() && r7.group(1).equals(m7.group(1)) && r7.group(2).equals(m7.group(2))) {
            toleratedLuaMessages++;
            return null;
        }
        Matcher rc = COMPILE.matcher(real);
        Matcher mc = COMPILE.matcher(model);
        if (rc.matches() && mc.matches() && rc.group(1).equals(mc.group(1))) {
            toleratedLuaMessages++;
            return null;
        }
        Matcher r6 = RUNTIME_62.matcher(real);
        Matcher m6 = RUNTIME_62.matcher(model);
        if (r6.matches() && m6.matches() && r6.group(1).equals(m6.group(1)) && r6.group(2).equals(m6.group(2))) {
            toleratedLuaMessages++;
            return null;
        }
        return "error texts differ";
    }

    /** A TTL in ms: absent (-2) and none (-1) exactly, a remaining time within the tolerance. */
    String ttl(long real, long model) {
        if (real < 0 || model < 0) return real == model ? null : "TTL presence differs";
        return Math.abs(real - model) <= TOLERANCE_MS ? null : "TTLs differ by " + (real - model) + " ms";
    }

    private static Long number(String s) {
        return Args.parseLong(org.luaj.vm2.LuaString.valueOf(Objects.requireNonNull(s)));
    }
}
