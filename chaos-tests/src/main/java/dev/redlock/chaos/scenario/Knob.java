package dev.redlock.chaos.scenario;

/**
 * A setting a deployment tunes and a tuned run ({@link Tuning}) applies to the scenarios, unless a scenario's claim
 * depends on its own value ({@link Needs#fixed()}).
 */
public enum Knob {
    /** N and the quorum (they go together). */
    QUORUM("redlock.quorum"),
    DRIFT_FACTOR("redlock.driftFactor"),
    FIXED_DRIFT("redlock.fixedDrift"),
    NODE_TIMEOUT("redlock.nodeTimeout"),
    RESTART_QUARANTINE("redlock.restartQuarantine"),
    /** The lease TTL (not a {@code RedlockConfig} key: {@code chaos.ttl}). */
    TTL("chaos.ttl");

    private final String property;

    Knob(String property) {
        this.property = property;
    }

    /** The key in a tuned properties file. */
    public String property() {
        return property;
    }
}
