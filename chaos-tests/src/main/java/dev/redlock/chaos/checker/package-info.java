/**
 * Checkers read a finished history and return a {@link dev.redlock.chaos.checker.Result} (VALID / INVALID /
 * UNKNOWN with anomalies and metrics). {@link dev.redlock.chaos.checker.Checker#standard()} composes mutual
 * exclusion, stale writes, lost updates, liveness and token order (what clients believed) with the ground truth
 * sampled from the nodes (leases believed without a majority, keys that outlive the library's accounting), ranking INVALID over UNKNOWN over VALID; a checker that throws
 * counts as UNKNOWN, never as a pass.
 */
package dev.redlock.chaos.checker;
