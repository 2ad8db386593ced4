package dev.redlock.chaos.nemesis;

/**
 * How a clock fault on one node is produced.
 */
public enum ClockMode {
    /** The node runs under libfaketime and its clock really moves (offset or rate). */
    FAKETIME,
    /**
     * No libfaketime: the effect is simulated by shortening that node's lock-key TTLs (PEXPIRE), which is what a
     * clock running ahead does to a key's expiry. Everything else on the node (TIME in scripts) is unaffected.
     */
    SIMULATED_TTL
}
