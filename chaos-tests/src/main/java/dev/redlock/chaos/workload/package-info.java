/**
 * The clients and the protected resource: each {@link dev.redlock.chaos.workload.WorkloadClient} has its own
 * {@code Redlock}; every operation reads and writes a counter through a fenced store (rejects a token not greater
 * than the highest it took) and an unfenced one (takes anything), so one run shows both outcomes.
 */
package dev.redlock.chaos.workload;
