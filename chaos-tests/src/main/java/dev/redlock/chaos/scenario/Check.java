package dev.redlock.chaos.scenario;

/**
 * A scenario-specific assertion beyond the checkers ("stays available with 2 nodes cut", "the new holder's keys
 * survive the stale release").
 */
public record Check(String name, boolean passed, String detail) {
    @Override
    public String toString() {
        return (passed ? "ok   " : "FAIL ") + name + (detail.isEmpty() ? "" : ": " + detail);
    }
}
