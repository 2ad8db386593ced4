package dev.redlock.chaos.workload;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;

/**
 * A counter that takes a write only if its fencing token is strictly greater than the highest token it has taken
 * (Kleppmann's fenced storage). Reads are not fenced. Thread-safe; every write, taken or refused, is recorded in the
 * history under the store's lock.
 */
public final class FencedStore {
    private final History history;
    private long value;
    private long highestToken = -1;

    public FencedStore(History history) {
        this.history = history;
    }

    public synchronized long read() {
        return value;
    }

    public synchronized long highestToken() {
        return highestToken;
    }

    /** Stores {@code readValue + 1} if {@code token} is greater than every token taken so far. */
    public synchronized Write write(int client, long invokeNanos, String owner, long token, long readValue) {
        long before = value;
        long highest = highestToken;
        boolean accept = token > highestToken;
        if (accept) {
            value = readValue + 1;
            highestToken = token;
        }
        return history.write(Write.Store.FENCED, client, invokeNanos, History.now(), owner, token, readValue,
                readValue + 1, before, highest, accept);
    }
}
