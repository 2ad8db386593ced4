/**
 * The append-only record of a run on one monotonic clock ({@code System.nanoTime}): lock events
 * ({@link dev.redlock.chaos.history.Event}: INVOKE then OK / FAIL / INFO; an exception or timeout is INFO, never
 * FAIL), store writes ({@link dev.redlock.chaos.history.Write}, in each store's apply order) and fault windows
 * ({@link dev.redlock.chaos.history.FaultWindow}).
 */
package dev.redlock.chaos.history;
