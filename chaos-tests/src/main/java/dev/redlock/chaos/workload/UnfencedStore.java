package dev.redlock.chaos.workload;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;

/**
 * A counter that accepts every write, as a resource protected only by the lock would. Thread-safe; every write is
 * recorded in the history under the store's lock, so the history has the store's apply order.
 */
public final class UnfencedStore {
    private final History history;
    private long value;
    private long highestToken = -1;

    public UnfencedStore(History history) {
        this.history = history;
    }

    public synchronized long read() {
        return value;
    }

    /** Stores {@code readValue + 1} whatever the token. */
    public synchronized Write write(int client, long invokeNanos, String owner, long token, long readValue) {
        long before = value;
        long highest = highestToken;
        value = readValue + 1;
        highestToken = Math.max(highestToken, token);
        return history.write(Write.Store.UNFENCED, client, invokeNanos, History.now(), owner, token, readValue,
                readValue + 1, before, highest, true);
    }
}
