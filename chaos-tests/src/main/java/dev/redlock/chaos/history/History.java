package dev.redlock.chaos.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The append-only record of one scenario run: lock events, store writes and fault windows, all on one monotonic
 * clock ({@link System#nanoTime()}). Appends are thread-safe and totally ordered by {@code seq}; readers get
 * immutable snapshots. Nothing is ever removed or changed.
 */
public final class History {
    private final List<Event> events = new ArrayList<>();
    private final List<Write> writes = new ArrayList<>();
    private final List<FaultWindow> faults = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<NodeSample> samples = new ArrayList<>();
    private final Map<String, String> ownerValues = new LinkedHashMap<>();
    private final List<String> samplerErrors = new ArrayList<>();
    private final Map<Integer, int[]> clientLists = new HashMap<>();
    private final int nodes;
    private final int quorum;
    private long seq;
    private long startNanos;
    private long endNanos;

    /** A history of a run against {@code nodes} lock nodes needing {@code quorum} grants. */
    public History(int nodes, int quorum) {
        this.nodes = nodes;
        this.quorum = quorum;
        this.startNanos = System.nanoTime();
    }

    public static long now() {
        return System.nanoTime();
    }

    public int nodes() {
        return nodes;
    }

    public int quorum() {
        return quorum;
    }

    /**
     * Client {@code client} runs with a node list of its own: the first {@code listSize} nodes, needing
     * {@code quorum} of them (an old client during a change of the node list). The ground truth judges its leases
     * by that list.
     */
    public synchronized void clientList(int client, int listSize, int quorum) {
        if (listSize < 1 || listSize > nodes || quorum <= listSize / 2 || quorum > listSize) {
            throw new IllegalArgumentException("client " + client + ": list of " + listSize + " of " + nodes
                    + " nodes, quorum " + quorum);
        }
        clientLists.put(client, new int[] {listSize, quorum});
    }

    /** {listSize, quorum} of client {@code client}'s node list: {@link #clientList}, else {nodes, quorum}. */
    public synchronized int[] listOf(int client) {
        int[] l = clientLists.get(client);
        return l == null ? new int[] {nodes, quorum} : l.clone();
    }

    /** Marks the start of the measured part of the run (after warm-up). */
    public synchronized void begin() {
        startNanos = now();
    }

    /** Marks the end of the measured part of the run. */
    public synchronized void end() {
        endNanos = now();
    }

    /** Sets the measured span explicitly (hand-built histories in tests). */
    public synchronized void span(long startNanos, long endNanos) {
        this.startNanos = startNanos;
        this.endNanos = endNanos;
    }

    public synchronized long startNanos() {
        return startNanos;
    }

    /** End of the run, or now while it is still running. */
    public synchronized long endNanos() {
        return endNanos == 0 ? now() : endNanos;
    }

    public synchronized Event invoke(Event.Op op, int client, String owner, long token) {
        return add(Event.Type.INVOKE, op, client, owner, token, 0, "");
    }

    public synchronized Event ok(Event.Op op, int client, String owner, long token, long validityNanos) {
        return add(Event.Type.OK, op, client, owner, token, validityNanos, "");
    }

    public synchronized Event fail(Event.Op op, int client, String owner, long token, String detail) {
        return add(Event.Type.FAIL, op, client, owner, token, 0, detail);
    }

    public synchronized Event info(Event.Op op, int client, String owner, long token, String detail) {
        return add(Event.Type.INFO, op, client, owner, token, 0, detail);
    }

    /** Appends an event with an explicit timestamp (tests build histories by hand with this). */
    public synchronized Event append(Event.Type type, Event.Op op, int client, long nanos, String owner, long token,
                                     long validityNanos, String detail) {
        Event e = new Event(seq++, type, op, client, nanos, owner, token, validityNanos, detail == null ? "" : detail);
        events.add(e);
        return e;
    }

    private Event add(Event.Type type, Event.Op op, int client, String owner, long token, long validity, String detail) {
        return append(type, op, client, now(), owner, token, validity, detail);
    }

    /** Appends a store write; stores call this under their own lock so the order is their apply order. */
    public synchronized Write write(Write.Store store, int client, long invokeNanos, long nanos, String owner, long token,
                                    long readValue, long newValue, long valueBefore, long highestBefore, boolean accepted) {
        Write w = new Write(seq++, store, client, invokeNanos, nanos, owner, token, readValue, newValue, valueBefore,
                highestBefore, accepted);
        writes.add(w);
        return w;
    }

    public synchronized void fault(FaultWindow w) {
        faults.add(w);
    }

    /** A free-text note for the report ("node 2 killed and restarted at once"). */
    public synchronized void note(String text) {
        notes.add((now() - startNanos) / 1_000_000 + "ms " + text);
    }

    /** Records which owner value lease {@code owner} ("c1#4") wrote on the nodes, so samples can be matched to it. */
    public synchronized void ownerValue(String owner, String value) {
        ownerValues.put(owner, value);
    }

    /** Lease label to the owner value it wrote on the nodes, for the leases whose value was recorded. */
    public synchronized Map<String, String> ownerValues() {
        return Map.copyOf(ownerValues);
    }

    /** Appends one ground-truth sample of a node (see {@link NodeSample}). */
    public synchronized void sample(NodeSample s) {
        samples.add(s);
    }

    public synchronized List<NodeSample> samples() {
        return List.copyOf(samples);
    }

    /** The ground-truth sampler failed: the checkers that need it must say UNKNOWN, never pass. */
    public synchronized void samplerError(String what) {
        samplerErrors.add(what);
    }

    public synchronized List<String> samplerErrors() {
        return List.copyOf(samplerErrors);
    }

    public synchronized List<Event> events() {
        return Collections.unmodifiableList(new ArrayList<>(events));
    }

    public synchronized List<Event> events(Predicate<Event> filter) {
        return events.stream().filter(filter).toList();
    }

    public synchronized List<Write> writes() {
        return Collections.unmodifiableList(new ArrayList<>(writes));
    }

    public synchronized List<Write> writes(Write.Store store) {
        return writes.stream().filter(w -> w.store() == store).toList();
    }

    public synchronized List<FaultWindow> faults() {
        return Collections.unmodifiableList(new ArrayList<>(faults));
    }

    public synchronized List<String> notes() {
        return List.copyOf(notes);
    }

    /** A note as {@link #notes()} returned it, time prefix included (a stored history read back). */
    synchronized void restoreNote(String note) {
        notes.add(note);
    }

    /** Client to {listSize, quorum}, for the clients given a list of their own ({@link #clientList}). */
    synchronized Map<Integer, int[]> clientLists() {
        Map<Integer, int[]> copy = new TreeMap<>();
        clientLists.forEach((c, l) -> copy.put(c, l.clone()));
        return copy;
    }

    /** Every event, write and fault as text, in order (for failure messages and replay diffs). */
    public synchronized String dump() {
        StringBuilder sb = new StringBuilder();
        List<Object> all = new ArrayList<>();
        all.addAll(events);
        all.addAll(writes);
        all.sort(Comparator.comparingLong(o -> o instanceof Event e ? e.seq() : ((Write) o).seq()));
        for (Object o : all) {
            long nanos = o instanceof Event e ? e.nanos() : ((Write) o).nanos();
            sb.append(String.format("%8.1fms  %s%n", (nanos - startNanos) / 1e6, o));
        }
        for (FaultWindow f : faults) {
            sb.append(String.format("fault %8.1fms..%8.1fms  %s%n", (f.startNanos() - startNanos) / 1e6,
                    (f.endNanos() - startNanos) / 1e6, f));
        }
        for (String n : notes) sb.append("note ").append(n).append('\n');
        return sb.toString();
    }
}
