package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.nemesis.FaultKind;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.NodeSample;
import dev.redlock.chaos.history.Write;
import java.util.List;

/** Hand-built histories for checker tests; times in milliseconds from an arbitrary origin. */
final class Histories {
    private static final long MS = 1_000_000L;
    private final History h = new History(5, 3);
    private final long origin = 1_000 * MS;
    private long unfencedValue;
    private long fencedValue;
    private long fencedHighest = -1;
    private long unfencedHighest = -1;
    private final int[] generation = new int[5];

    Histories() {
        // the measured run spans [0, 10 s]
    }

    History history() {
        return h;
    }

    long at(long ms) {
        return origin + ms * MS;
    }

    /** A lease: acquire invoked at {@code invoke}, OK at {@code ok} with {@code validity} ms, release invoked at {@code release} (-1: never). */
    Histories lease(int client, String owner, long token, long invoke, long ok, long validity, long release) {
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, client, at(invoke), "", -1, 0, "");
        h.append(Event.Type.OK, Event.Op.ACQUIRE, client, at(ok), owner, token, validity * MS, "");
        if (release >= 0) {
            h.append(Event.Type.INVOKE, Event.Op.RELEASE, client, at(release), owner, token, 0, "");
            h.append(Event.Type.OK, Event.Op.RELEASE, client, at(release + 1), owner, token, 0, "");
        }
        return this;
    }

    Histories failedAcquire(int client, long invoke, long fail) {
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, client, at(invoke), "", -1, 0, "");
        h.append(Event.Type.FAIL, Event.Op.ACQUIRE, client, at(fail), "", -1, 0, "unavailable");
        return this;
    }

    Histories event(Event.Type type, Event.Op op, int client, long ms, String owner, long token, long validityMs) {
        h.append(type, op, client, at(ms), owner, token, validityMs * MS, "");
        return this;
    }

    /** An RMW on both stores that had read the given values; applied as the stores would. */
    Histories write(int client, String owner, long token, long readUnfenced, long readFenced, long ms) {
        h.write(Write.Store.UNFENCED, client, at(ms), at(ms), owner, token, readUnfenced, readUnfenced + 1,
                unfencedValue, unfencedHighest, true);
        unfencedValue = readUnfenced + 1;
        unfencedHighest = Math.max(unfencedHighest, token);
        boolean accept = token > fencedHighest;
        h.write(Write.Store.FENCED, client, at(ms), at(ms), owner, token, readFenced, readFenced + 1, fencedValue,
                fencedHighest, accept);
        if (accept) {
            fencedValue = readFenced + 1;
            fencedHighest = token;
        }
        return this;
    }

    /** A raw fenced-store record, whatever a store would have done (to test the checker against broken stores). */
    Histories rawFenced(int client, String owner, long token, long ms, long highestBefore, boolean accepted) {
        h.write(Write.Store.FENCED, client, at(ms), at(ms), owner, token, 0, 1, 0, highestBefore, accepted);
        return this;
    }

    /** Records the owner value a lease wrote on the nodes. */
    Histories value(String owner, String value) {
        h.ownerValue(owner, value);
        return this;
    }

    /**
     * Ground-truth samples of one node every {@code step} ms over [from, to): it held {@code value} ("" = no key),
     * answered by the node's current process (see {@link #restart}).
     */
    Histories held(int node, long from, long to, long step, String value) {
        for (long t = from; t < to; t += step) {
            h.sample(new NodeSample(node, at(t), at(t) + MS / 2, true, value, value.isEmpty() ? -2 : 1000, runId(node)));
        }
        return this;
    }

    /** Unanswered samples of one node every {@code step} ms over [from, to) (down or paused). */
    Histories unanswered(int node, long from, long to, long step) {
        for (long t = from; t < to; t += step) h.sample(NodeSample.unanswered(node, at(t)));
        return this;
    }

    /** One sample with an explicit PTTL. */
    Histories sample(int node, long ms, String value, long pttl) {
        h.sample(new NodeSample(node, at(ms), at(ms) + MS / 2, true, value, pttl, runId(node)));
        return this;
    }

    /** The node's next samples come from another process (a restart or a failover: a new {@code run_id}). */
    Histories restart(int node) {
        generation[node]++;
        return this;
    }

    private String runId(int node) {
        return String.format("%040d", node * 1000 + generation[node]);
    }

    Histories fault(FaultKind kind, long from, long to, Integer... nodes) {
        h.fault(new FaultWindow(at(from), at(to), kind, "test", List.of(nodes), List.of(), false));
        return this;
    }

    Histories fault(long from, long to, boolean unavailable, Integer... nodes) {
        h.fault(new FaultWindow(at(from), at(to), FaultKind.CUT, "test", List.of(nodes), List.of(), unavailable));
        return this;
    }
}
