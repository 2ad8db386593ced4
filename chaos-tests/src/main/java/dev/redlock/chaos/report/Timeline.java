package dev.redlock.chaos.report;

import dev.redlock.chaos.checker.Anomaly;
import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.NodeSample;
import dev.redlock.chaos.history.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the HTML timeline draws, derived from a {@link History}: one lane per client, each lease as a bar over its
 * believed-held window {@code [acquired, min(acquired + validity, release invoked)]}, writes as ticks, fault windows
 * and anomalies as shaded spans; and, when the ground truth was sampled, one lane per node showing whose value it
 * held when. Times are milliseconds from the start of the history.
 */
record Timeline(double spanMs, List<Integer> lanes, List<Bar> bars, List<Tick> ticks, List<Span> faults,
                List<Span> anomalies, int nodes, List<NodeRun> nodeRuns) {

    /**
     * A stretch during which the ground-truth sampler read the same thing on one node: a lease's value ({@code owner}
     * its label), the value of a round that returned no lease ({@code owner} "no lease"), no key ("" owner, not
     * drawn), or nothing at all (the node could not be read: {@code answered} false).
     */
    record NodeRun(int node, double fromMs, double toMs, String owner, boolean answered, long pttlMs) {}

    /** One lease: the window the client believed it held the lock. */
    record Bar(int client, double fromMs, double toMs, String owner, long token, boolean endedByRelease) {}

    /** One write to a store. */
    record Tick(int client, double atMs, Write.Store store, boolean accepted, long token, boolean stale) {}

    /** A shaded span with a label; {@code clients} empty means every lane. */
    record Span(double fromMs, double toMs, String kind, String label, List<Integer> clients) {}

    static Timeline of(History h, List<FaultWindow> faults, List<Anomaly> anomalies, int clients) {
        long t0 = h.startNanos();
        long end = Math.max(h.endNanos(), t0 + 1);
        TreeSet<Integer> lanes = new TreeSet<>();
        for (int c = 0; c < clients; c++) lanes.add(c);
        Map<String, Event> acquired = new HashMap<>();
        Map<String, Double> validityEnd = new HashMap<>();
        List<Bar> bars = new ArrayList<>();
        for (Event e : h.events()) {
            lanes.add(e.client());
            end = Math.max(end, e.nanos());
            if (e.type() == Event.Type.OK && (e.op() == Event.Op.ACQUIRE || e.op() == Event.Op.EXTEND)) {
                if (e.op() == Event.Op.ACQUIRE) acquired.put(e.owner(), e);
                validityEnd.put(e.owner(), ms(e.nanos() + e.validityNanos(), t0));
            } else if (e.op() == Event.Op.RELEASE && e.type() == Event.Type.INVOKE) {
                Event a = acquired.remove(e.owner());
                if (a != null) {
                    double to = Math.min(validityEnd.getOrDefault(e.owner(), ms(e.nanos(), t0)), ms(e.nanos(), t0));
                    bars.add(new Bar(a.client(), ms(a.nanos(), t0), to, a.owner(), a.token(), true));
                }
            }
        }
        for (Event a : acquired.values()) {   // never released: the bar ends with its validity
            bars.add(new Bar(a.client(), ms(a.nanos(), t0), validityEnd.get(a.owner()), a.owner(), a.token(), false));
        }
        bars.sort((x, y) -> Double.compare(x.fromMs(), y.fromMs()));
        List<Tick> ticks = new ArrayList<>();
        for (Write w : h.writes()) {
            end = Math.max(end, w.nanos());
            boolean stale = w.highestTokenBefore() >= 0 && w.token() <= w.highestTokenBefore();
            ticks.add(new Tick(w.client(), ms(w.nanos(), t0), w.store(), w.accepted(), w.token(), stale));
        }
        List<Span> f = new ArrayList<>();
        for (FaultWindow w : faults) {
            end = Math.max(end, w.endNanos());
            f.add(new Span(ms(w.startNanos(), t0), ms(w.endNanos(), t0), w.kind().label(), w.toString(), w.clients()));
        }
        List<Span> a = new ArrayList<>();
        for (Anomaly an : anomalies) {
            if (an.kind().equals("stale-write-rejected")) continue;   // the fence doing its job, drawn as a tick
            if (an.startNanos() == 0 && an.endNanos() == 0) continue;
            a.add(new Span(ms(an.startNanos(), t0), ms(Math.max(an.endNanos(), an.startNanos()), t0), an.kind(),
                    an.description(), an.clients()));
        }
        return new Timeline(ms(end, t0), List.copyOf(lanes), bars, ticks, f, a, h.samples().isEmpty() ? 0 : h.nodes(),
                nodeRuns(h, t0));
    }

    /** Consecutive samples of a node that read the same, merged (one bar per lease value per node). */
    private static List<NodeRun> nodeRuns(History h, long t0) {
        Map<String, String> labelOf = new HashMap<>();
        h.ownerValues().forEach((label, value) -> labelOf.put(value, label));
        List<NodeRun> runs = new ArrayList<>();
        Map<Integer, NodeSample> open = new HashMap<>();
        Map<Integer, NodeSample> last = new HashMap<>();
        List<NodeSample> samples = new ArrayList<>(h.samples());
        samples.sort((x, y) -> Long.compare(x.sentNanos(), y.sentNanos()));
        for (NodeSample s : samples) {
            NodeSample o = open.get(s.node());
            if (o != null && (o.answered() != s.answered() || !o.value().equals(s.value()))) {
                runs.add(run(o, s.sentNanos(), labelOf, t0));
                o = null;
            }
            if (o == null) open.put(s.node(), s);
            last.put(s.node(), s);
        }
        for (Map.Entry<Integer, NodeSample> en : open.entrySet()) {
            runs.add(run(en.getValue(), last.get(en.getKey()).receivedNanos(), labelOf, t0));
        }
        runs.removeIf(r -> r.answered() && r.owner().isEmpty());
        return runs;
    }

    private static NodeRun run(NodeSample first, long endNanos, Map<String, String> labelOf, long t0) {
        String owner = !first.answered() || first.value().isEmpty() ? "" : labelOf.getOrDefault(first.value(), "no lease");
        return new NodeRun(first.node(), ms(first.sentNanos(), t0), ms(endNanos, t0), owner, first.answered(),
                first.pttlMs());
    }

    private static double ms(long nanos, long t0) {
        return Math.max(0, (nanos - t0) / 1e6);
    }
}
