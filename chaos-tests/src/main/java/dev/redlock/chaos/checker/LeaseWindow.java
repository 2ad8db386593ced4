package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.History;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The time a client believed it held a lease: from the acquire's OK to the earliest of its validity end (as
 * extended by successful extensions and by what the client was told when it asked), the moment it learned the lease was lost, and the moment it invoked release.
 *
 * @param owner   lease label
 * @param client  client
 * @param token   fencing token (-1 when none)
 * @param invoked when the acquire that returned this lease was invoked: no node can hold its owner value earlier
 * @param start   acquire OK
 * @param end     end of the believed-held window
 */
public record LeaseWindow(String owner, int client, long token, long invoked, long start, long end) {

    public boolean overlaps(LeaseWindow o) {
        return start < o.end && o.start < end;
    }

    /** Every lease of the history, in order of acquisition. */
    public static List<LeaseWindow> of(History h) {
        // owner -> {client, token, start, deadline, lostAt, releaseAt, invoked}
        Map<String, long[]> state = new LinkedHashMap<>();
        Map<Integer, Long> invokedBy = new HashMap<>();   // client -> its last acquire invocation
        for (Event e : h.events()) {
            if (e.op() == Event.Op.ACQUIRE && e.type() == Event.Type.INVOKE) invokedBy.put(e.client(), e.nanos());
            if (e.owner().isEmpty()) continue;
            long[] s = state.get(e.owner());
            if (e.op() == Event.Op.ACQUIRE && e.type() == Event.Type.OK) {
                state.put(e.owner(), new long[] {e.client(), e.token(), e.nanos(), e.nanos() + e.validityNanos(),
                        Long.MAX_VALUE, Long.MAX_VALUE, invokedBy.getOrDefault(e.client(), e.nanos())});
                continue;
            }
            if (s == null) continue;
            switch (e.op()) {
                case EXTEND -> {
                    if (e.type() == Event.Type.OK) s[3] = Math.max(s[3], e.nanos() + e.validityNanos());
                    else if (e.type() == Event.Type.FAIL) s[4] = Math.min(s[4], e.nanos());
                }
                case VALID -> {
                    if (e.type() == Event.Type.OK) s[3] = Math.max(s[3], e.nanos() + e.validityNanos());
                }
                case LOST -> s[4] = Math.min(s[4], e.nanos());
                case RELEASE -> {
                    if (e.type() == Event.Type.INVOKE) s[5] = Math.min(s[5], e.nanos());
                }
                default -> { }
            }
        }
        List<LeaseWindow> out = new ArrayList<>();
        for (Map.Entry<String, long[]> en : state.entrySet()) {
            long[] s = en.getValue();
            long end = Math.min(s[3], Math.min(s[4], s[5]));
            out.add(new LeaseWindow(en.getKey(), (int) s[0], s[1], Math.min(s[6], s[2]), s[2], Math.max(s[2], end)));
        }
        return out;
    }
}
