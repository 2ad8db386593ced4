package dev.redlock.sim.simulator;

import dev.redlock.Lease;

/**
 * One acquisition by one client, as the checker follows it: when it was invoked, and once it won, the lease, its
 * token and when it stopped counting as held (released by the workload, or its validity seen over). Not
 * thread-safe: the loop's thread only.
 */
final class Acquisition {
    final int client;
    final int number;
    final String resource;
    final long invokedAt;
    Lease lease;
    long token = -1;
    long grantedAt = -1;
    /** When the lease stopped counting as held: released, or its validity first seen over (-1: still held). */
    long endedAt = -1;
    /** The workload released it at this time (-1: not released). */
    long releasedAt = -1;
    /** Since when (virtual ns, its client running) the lease is over unreleased and whenLost() has not completed. */
    long lossDueSince = -1;
    /** Its whenLost() was seen complete. */
    boolean lossReported;
    final ClientExecutor exec;
    /** The owner value a quorum of nodes held for it when it was won, and each node's run id then. */
    String owner;
    String[] runIds;

    Acquisition(int client, ClientExecutor exec, int number, String resource, long invokedAt) {
        this.client = client;
        this.exec = exec;
        this.number = number;
        this.resource = resource;
        this.invokedAt = invokedAt;
    }

    boolean won() {
        return lease != null;
    }

    /** Won and not yet over (released or validity seen over). */
    boolean held() {
        return lease != null && endedAt < 0;
    }

    String label() {
        return "c" + client + "#" + number + "/" + resource + (token >= 0 ? " token " + token : "");
    }
}
