package dev.redlock.doctor;

/**
 * One thing the doctor found on a node that the user should act on. Immutable.
 *
 * @param check    what found it: a preflight setting ({@code maxmemory-policy}, {@code role}, {@code clock},
 *                 {@code redis_version}, {@code CONFIG}), {@code acl}, or {@code rtt}
 * @param severity {@link Severity#FAIL} when {@code Preflight.STRICT} refuses the node or the library cannot work on
 *                 it; {@link Severity#WARN} otherwise
 * @param message  one line naming the node, the setting and its value, and what to do; never a password
 */
public record Finding(String check, Severity severity, String message) {
    /** How bad a finding is. */
    public enum Severity {
        /** The node is refused by {@code Preflight.STRICT}, or a command the library needs is denied. */
        FAIL,
        /** Unknown, untested or degraded, but usable. */
        WARN
    }

    boolean fails() {
        return severity == Severity.FAIL;
    }
}
