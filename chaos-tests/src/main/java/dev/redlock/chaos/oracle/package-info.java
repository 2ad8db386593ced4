/**
 * The ground truth of a run: {@link dev.redlock.chaos.oracle.NodeSampler} reads, straight from each redis-server
 * port and on the history's clock, which owner value holds the protected lock key on every node and its PTTL, so the
 * checkers can compare what clients believe with what the nodes actually hold.
 */
package dev.redlock.chaos.oracle;
