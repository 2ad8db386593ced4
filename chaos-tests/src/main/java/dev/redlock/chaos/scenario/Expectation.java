package dev.redlock.chaos.scenario;

/**
 * What a scenario claims (the README's chaos suite table).
 */
public enum Expectation {
    /**
     * The fault breaks the lock: the unfenced store must show it (overlapping leases, a stale write accepted, or a
     * lost update) and the fenced store must refuse at least one stale write and accept none. A run without the
     * violation fails: the fault injector did not do its job and the scenario proved nothing.
     */
    VIOLATION,
    /** The lock holds: no overlap, no stale write accepted by either store, no lost update. */
    SAFE,
    /**
     * The library refuses the nodes before anything runs ({@code Redlock.create} with {@code Preflight.STRICT}
     * throws, naming the node and the setting); the script checks the refusal, and like SAFE nothing may overlap.
     */
    REFUSED
}
