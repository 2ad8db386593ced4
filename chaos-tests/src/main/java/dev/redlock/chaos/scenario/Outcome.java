package dev.redlock.chaos.scenario;

/** What a run showed in its unfenced store. */
public enum Outcome {
    /** Overlapping leases, a stale write accepted by the unfenced store, or a lost update. */
    VIOLATION,
    /** None of those. */
    NONE,
    /** A checker could not decide (crashed, or the history does not add up): never counts as a pass. */
    UNKNOWN
}
