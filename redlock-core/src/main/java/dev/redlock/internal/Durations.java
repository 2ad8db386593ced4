package dev.redlock.internal;

import java.time.Duration;
import java.util.Locale;

/**
 * Internal, not API: the one parser and printer of durations as the library's properties write them ({@code 250ms},
 * {@code 1.5s}, {@code 1m}, {@code 1h}, ISO-8601 {@code PT2S}, or a plain number of milliseconds), shared by
 * {@code RedlockConfig} and this project's command lines, so a value means the same in a properties file and on a
 * command line. Anything here may change or disappear in any release; applications must not use it.
 */
public final class Durations {
    private Durations() {}

    /**
     * A duration as a config message shows it: whole hours as {@code 2h}, whole seconds as {@code 30s}, whole
     * milliseconds as {@code 250ms}, else nanoseconds ({@code 1500ns}); null as {@code null}.
     */
    public static String human(Duration d) {
        if (d == null) return "null";
        if (d.compareTo(Duration.ofDays(365_000)) > 0 || d.compareTo(Duration.ofDays(-365_000)) < 0) {
            return d.getSeconds() + "s";                  // beyond what toMillis() can hold
        }
        if (d.isNegative()) return "-" + human(d.negated());
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) return ms / 3_600_000 + "h";
        if (ms % 1000 == 0 && ms > 0) return ms / 1000 + "s";
        if (d.toNanos() % 1_000_000 != 0) return d.toNanos() + "ns";
        return ms + "ms";
    }

    /**
     * @param name what the value is for, named in the message
     * @throws IllegalArgumentException naming {@code name} and the value when it is not a duration
     */
    public static Duration parse(String name, String value) {
        String s = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("p")) return Duration.parse(value.trim());
            if (s.endsWith("ms")) return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).trim()));
            if (s.endsWith("s")) return Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 1).trim()) * 1000));
            if (s.endsWith("m")) return Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1).trim()) * 60);
            if (s.endsWith("h")) return Duration.ofHours(Long.parseLong(s.substring(0, s.length() - 1).trim()));
            return Duration.ofMillis(Long.parseLong(s));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(name + " must be a duration like 250ms, 2s, 1m, 1h or PT2S, got '" + value + "'");
        }
    }
}
