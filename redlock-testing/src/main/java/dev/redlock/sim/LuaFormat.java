package dev.redlock.sim;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * Number-to-text conversions as Redis's Lua 5.1 (C {@code printf}) does them, where LuaJ differs: LuaJ's
 * {@code string.format} ignores the precision of {@code %f} and prints {@code 1.7E15}, and its {@code tostring}
 * prints every integral double in full where Lua prints {@code %.14g} ({@code 1e+15}). Exact: rounding is done on
 * the double's exact binary value, half to even, as glibc does.
 */
final class LuaFormat {
    private LuaFormat() {}

    /** C's {@code %.<precision>g} of {@code x}. */
    static String g(double x, int precision, boolean alternate, boolean upper) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return special(x, upper);
        int p = precision == 0 ? 1 : precision;
        if (x == 0) {
            String z = alternate ? "0." + "0".repeat(p - 1) : "0";
            return (1 / x < 0 ? "-" : "") + z;
        }
        BigDecimal r = new BigDecimal(x).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        String s;
        if (exp < -4 || exp >= p) {
            s = e(x, p - 1, upper);
            if (!alternate) {
                int ePos = s.indexOf(upper ? 'E' : 'e');
                s = stripZeros(s.substring(0, ePos)) + s.substring(ePos);
            }
        } else {
            s = f(x, p - 1 - exp);
            if (!alternate) s = stripZeros(s);
        }
        return s;
    }

    /** C's {@code %.<precision>f}. */
    static String f(double x, int precision) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return special(x, false);
        String s = new BigDecimal(x).setScale(precision, RoundingMode.HALF_EVEN).abs().toPlainString();
        return negative(x) ? "-" + s : s;
    }

    /** C's {@code %.<precision>e}. */
    static String e(double x, int precision, boolean upper) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return special(x, upper);
        String sign = negative(x) ? "-" : "";
        if (x == 0) return sign + "0" + (precision > 0 ? "." + "0".repeat(precision) : "") + (upper ? "E+00" : "e+00");
        BigDecimal r = new BigDecimal(Math.abs(x)).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        String digits = r.unscaledValue().toString();
        while (digits.length() < precision + 1) digits += "0";
        digits = digits.substring(0, precision + 1);
        String mant = precision > 0 ? digits.charAt(0) + "." + digits.substring(1) : digits;
        String ex = Integer.toString(Math.abs(exp));
        if (ex.length() < 2) ex = "0" + ex;
        return sign + mant + (upper ? "E" : "e") + (exp < 0 ? "-" : "+") + ex;
    }

    /** Lua 5.1's {@code tostring} of a number ({@code %.14g}). */
    static String number(double x) {
        if (x == (long) x && Math.abs(x) < 1e14) {
            return x == 0 && 1 / x < 0 ? "-0" : Long.toString((long) x);
        }
        return g(x, 14, false, false);
    }

    /** How Redis turns a Lua number argument of {@code redis.call} into a string ({@code %.17g}). */
    static String argument(double x) {
        if (x == (long) x && Math.abs(x) < 1e17) return Long.toString((long) x);
        return g(x, 17, false, false);
    }

    private static boolean negative(double x) {
        return x < 0 || (x == 0 && 1 / x < 0);
    }

    private static String special(double x, boolean upper) {
        String s = Double.isNaN(x) ? "nan" : (x < 0 ? "-inf" : "inf");
        return upper ? s.toUpperCase() : s;
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) return s;
        int end = s.length();
        while (s.charAt(end - 1) == '0') end--;
        if (s.charAt(end - 1) == '.') end--;
        return s.substring(0, end);
    }

    /** Lua 5.1's {@code string.format}. */
    static LuaString format(Varargs args) {
        LuaString fmt = args.checkstring(1);
        String f = fmt.tojstring();
        StringBuilder out = new StringBuilder(f.length() + 16);
        int arg = 1;
        for (int i = 0; i < f.length(); i++) {
            char c = f.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (++i >= f.length()) throw new LuaError("invalid option '%' to 'format'");
            if (f.charAt(i) == '%') {
                out.append('%');
                continue;
            }
            int start = i;
            while (i < f.length() && "-+ #0".indexOf(f.charAt(i)) >= 0) i++;
            String flags = f.substring(start, i);
            int width = 0;
            while (i < f.length() && Character.isDigit(f.charAt(i))) width = width * 10 + (f.charAt(i++) - '0');
            int precision = -1;
            if (i < f.length() && f.charAt(i) == '.') {
                i++;
                precision = 0;
                while (i < f.length() && Character.isDigit(f.charAt(i))) precision = precision * 10 + (f.charAt(i++) - '0');
            }
            if (i >= f.length()) throw new LuaError("invalid option to 'format'");
            char conv = f.charAt(i);
            arg++;
            out.append(one(conv, flags, width, precision, args, arg));
        }
        return LuaString.valueOf(out.toString());
    }

    private static String one(char conv, String flags, int width, int precision, Varargs args, int arg) {
        boolean alt = flags.indexOf('#') >= 0;
        switch (conv) {
            case 'd', 'i' -> {
                long v = (long) args.checkdouble(arg);
                String digits = Long.toString(Math.abs(v));
                if (v == Long.MIN_VALUE) digits = digits.substring(1);
                if (precision >= 0) digits = "0".repeat(Math.max(0, precision - digits.length())) + digits;
                return pad(sign(v < 0, flags), digits, flags, width, precision < 0);
            }
            case 'u' -> {
                return pad("", Long.toUnsignedString((long) args.checkdouble(arg)), flags, width, true);
            }
            case 'o', 'x', 'X' -> {
                long v = (long) args.checkdouble(arg);
                String d = conv == 'o' ? Long.toOctalString(v) : Long.toHexString(v);
                if (conv == 'X') d = d.toUpperCase();
                if (alt && v != 0) d = (conv == 'o' ? "0" : conv == 'x' ? "0x" : "0X") + d;
                return pad("", d, flags, width, true);
            }
            case 'c' -> {
                return pad("", String.valueOf((char) (int) args.checkdouble(arg)), flags, width, false);
            }
            case 'e', 'E', 'f', 'F', 'g', 'G' -> {
                double x = args.checkdouble(arg);
                int p = precision < 0 ? 6 : precision;
                String s = switch (conv) {
                    case 'e', 'E' -> e(x, p, conv == 'E');
                    case 'f', 'F' -> f(x, p);
                    default -> g(x, p, alt, conv == 'G');
                };
                boolean neg = s.startsWith("-");
                if (neg) s = s.substring(1);
                return pad(sign(neg, flags), s, flags, width, !Double.isNaN(x) && !Double.isInfinite(x));
            }
            case 'q' -> {
                return quote(args.checkstring(arg).tojstring());
            }
            case 's' -> {
                LuaValue v = args.arg(arg);
                if (v.isnil() && args.narg() < arg) throw new LuaError("bad argument #" + arg + " to 'format' (string expected, got no value)");
                String s = v.type() == LuaValue.TNUMBER ? number(v.todouble()) : v.tojstring();
                if (precision >= 0 && s.length() > precision) s = s.substring(0, precision);
                return pad("", s, flags, width, false);
            }
            default -> throw new LuaError("invalid option '%" + conv + "' to 'format'");
        }
    }

    private static String sign(boolean negative, String flags) {
        if (negative) return "-";
        if (flags.indexOf('+') >= 0) return "+";
        if (flags.indexOf(' ') >= 0) return " ";
        return "";
    }

    private static String pad(String sign, String body, String flags, int width, boolean zeroPaddable) {
        int fill = width - sign.length() - body.length();
        if (fill <= 0) return sign + body;
        if (flags.indexOf('-') >= 0) return sign + body + " ".repeat(fill);
        if (zeroPaddable && flags.indexOf('0') >= 0) return sign + "0".repeat(fill) + body;
        return " ".repeat(fill) + sign + body;
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"', '\\' -> b.append('\\').append(c);
                case '\n' -> b.append("\\\n");
                case '\r' -> b.append("\\r");
                case '\0' -> b.append("\\000");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
