package dev.redlock.chaos.scenario;

/**
 * What a scenario claims (the chaos suite table (docs/chaos.md)).
 */
public enum Expectation {
    /**
     * The fault breaks the lock: the unfenced store must show it (overlapping leases, a stale write accepted, or a
     * lost update) and the fenced store must refuse at least one stale write and accept none. A run without the
     * violation fails: the fault injector did not do its job and the scenario proved nothing. Fencing tokens may go
     * backwards in such a run (the second holder's token can come from a node that lost its fences); the fenced store
     * absorbs that, by refusing the stale write.
     */
    VIOLATION,
    /**
     * The lock holds: no overlap, no lease believed without a majority of nodes holding it, no stale write accepted
     * by either store, no lost update, fencing tokens strictly increasing across holders.
     */
    SAFE,
    /**
     * The library refuses the nodes before anything runs ({@code Redlock.create} with {@code Preflight.STRICT}
     * throws, naming the node and the setting); the script checks the refusal, and like SAFE nothing may overlap.
     */
    REFUSED
}
