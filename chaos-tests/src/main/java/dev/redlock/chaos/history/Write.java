package dev.redlock.chaos.history;

/**
 * One write applied (or refused) by a protected store, recorded by the store itself at apply time, under its lock:
 * the order of {@link History#writes()} for one store is the order the store applied them.
 *
 * @param seq          position in the history (append order, shared with events)
 * @param store        which store
 * @param client       the writing client
 * @param invokeNanos  when the client issued the write (it may land later: see {@code nanos})
 * @param nanos        when the store applied or refused it
 * @param owner        the lease label of the writer
 * @param token        the writer's fencing token
 * @param readValue    the counter value the writer had read before computing {@code newValue}
 * @param newValue     the value the writer asked to store ({@code readValue + 1})
 * @param valueBefore  the store's value just before this write was applied or refused
 * @param highestTokenBefore highest token the store had accepted before this write (-1 when none)
 * @param accepted     whether the store took the write
 */
public record Write(long seq, Store store, int client, long invokeNanos, long nanos, String owner, long token,
                    long readValue, long newValue, long valueBefore, long highestTokenBefore, boolean accepted) {

    /** The two protected stores: every operation writes to both. */
    public enum Store {
        /** Rejects a token not strictly greater than the highest it has accepted. */
        FENCED,
        /** Accepts anything. */
        UNFENCED
    }

    @Override
    public String toString() {
        return "#" + seq + " WRITE " + store + " c" + client + " " + owner + " token=" + token + " read=" + readValue
                + " new=" + newValue + " before=" + valueBefore + " highestBefore=" + highestTokenBefore
                + (accepted ? " accepted" : " REJECTED") + " @" + nanos;
    }
}
