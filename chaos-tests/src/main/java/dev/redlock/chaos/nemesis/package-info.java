/**
 * Fault injection: network faults through toxiproxy-java (cut, latency/jitter, black hole, reset_peer), process
 * faults by pid (kill -9 and restart, SIGSTOP/SIGCONT), clock faults (libfaketime, or simulated by shortening a
 * node's lock-key TTLs), client faults (stall, delayed writes on the resource path). Every fault is a
 * {@link dev.redlock.chaos.nemesis.FaultHandle} that heals in {@code close()} and records its window.
 * {@code -Dchaos.nemesis.skip=<kinds>} (the labels of {@link dev.redlock.chaos.nemesis.FaultKind}) leaves faults out,
 * for twin runs; an unknown label is an error.
 */
package dev.redlock.chaos.nemesis;
