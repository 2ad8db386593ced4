package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.nemesis.FaultKind;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.NodeSample;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ground truth for liveness: a lock key that survives on a node beyond the time the library accounts for
 * ({@code key-outlived-accounting}), and a lock key without a TTL ({@code key-without-ttl}).
 *
 * <p><b>What the library accounts for.</b> A released lease's value must be gone from every node once the release
 * was invoked. A value that never became a lease (a failed round's, or a grant that came too late) must be gone once
 * every acquire round that was running when it appeared has completed: a failed round releases every node that may
 * hold its value, and a grant that arrives after its round was decided is released on arrival. Either way the
 * release must land within {@link #GRACE_NANOS} (1 s: a release on loopback lands in well under a millisecond; the
 * rest absorbs scheduling stalls of a loaded 2-core machine, where a client's I/O thread was seen to stall for a third
 * of a second). The exception the library documents: a node whose
 * grant never came back keeps the key until its TTL ends. So a fault on that node while the value appeared excuses
 * it: one that delays traffic ({@code latency}, {@code pause}) pushes the bound to the fault's end plus
 * {@link #DELAY_BOUND_NANOS} (longer than any delay the scenarios inject, shorter than the client's late-reply
 * window); any other node fault (cut, black hole, reset, kill, clock faults, or a kind this checker does not know)
 * that ended less than {@link #LOST_LOOKBACK_NANOS} (3 s, longer than the client's 2.5 s late-reply window) before
 * the value appeared may have held the request and lost the reply, and the value is left to its TTL.
 *
 * <p>UNKNOWN when the sampler failed, or when there were lock operations but no samples. Metrics: {@code keyLeaks},
 * {@code keyLeakMs} (longest overstay).
 */
public final class KeyLeakChecker implements Checker {
    public static final String NAME = "key-leaks";
    static final long GRACE_NANOS = 1_000_000_000L;
    static final long DELAY_BOUND_NANOS = 1_000_000_000L;
    static final long LOST_LOOKBACK_NANOS = 3_000_000_000L;
    private static final Set<FaultKind> DELAYING = EnumSet.of(FaultKind.LATENCY, FaultKind.PAUSE);
    private static final Set<FaultKind> CLIENT_SIDE = EnumSet.of(FaultKind.CLIENT_STALL, FaultKind.RESOURCE_LATENCY);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check(History h) {
        if (!h.samplerErrors().isEmpty()) return unknown("the ground-truth sampler failed: " + h.samplerErrors());
        List<NodeSample> samples = h.samples();
        List<Event> events = h.events();
        boolean acquired = events.stream().anyMatch(e -> e.op() == Event.Op.ACQUIRE);
        if (samples.isEmpty()) {
            if (acquired) return unknown("no ground-truth samples");
            return Result.of(NAME, Validity.VALID, List.of(), Map.of("keyLeaks", 0.0, "keyLeakMs", 0.0));
        }
        Map<String, String> labelOf = new HashMap<>();
        h.ownerValues().forEach((label, value) -> labelOf.put(value, label));
        Map<String, Long> released = new HashMap<>();   // label -> first release invoke
        List<long[]> rounds = new ArrayList<>();         // {invoke, completion or MAX}
        Map<Integer, long[]> open = new HashMap<>();
        for (Event e : events) {
            if (e.op() == Event.Op.RELEASE && e.type() == Event.Type.INVOKE) released.putIfAbsent(e.owner(), e.nanos());
            if (e.op() != Event.Op.ACQUIRE) continue;
            if (e.type() == Event.Type.INVOKE) {
                long[] r = {e.nanos(), Long.MAX_VALUE};
                rounds.add(r);
                open.put(e.client(), r);
            } else {
                long[] r = open.remove(e.client());
                if (r != null) r[1] = e.nanos();
            }
        }
        List<Anomaly> found = new ArrayList<>();
        double longest = 0;
        List<List<NodeSample>> byNode = NodeSamples.byNode(samples, h.nodes());
        for (int n = 0; n < byNode.size(); n++) {
            List<NodeSample> node = byNode.get(n);
            // per value: {index of the last answered sample before it appeared, first sighting, last sighting}
            Map<String, int[]> seen = new LinkedHashMap<>();
            int lastAnswered = -1;
            for (int i = 0; i < node.size(); i++) {
                NodeSample s = node.get(i);
                if (!s.answered()) continue;
                if (!s.value().isEmpty()) {
                    int prev = lastAnswered;
                    int idx = i;
                    seen.computeIfAbsent(s.value(), v -> new int[] {prev, idx, idx})[2] = i;
                    if (s.pttlMs() == -1) {
                        found.add(new Anomaly("key-without-ttl", "node " + n + " holds the lock key without a TTL ("
                                + describe(s.value(), labelOf) + ")", s.sentNanos(), s.receivedNanos(), List.of()));
                    }
                }
                lastAnswered = i;
            }
            for (Map.Entry<String, int[]> en : seen.entrySet()) {
                int[] ix = en.getValue();
                NodeSample firstSeen = node.get(ix[1]), lastSeen = node.get(ix[2]);
                long appearedAfter = ix[0] >= 0 ? node.get(ix[0]).sentNanos() : firstSeen.sentNanos();
                String label = labelOf.get(en.getKey());
                long due;
                if (label != null) {
                    Long rel = released.get(label);
                    if (rel == null) continue;   // still held, or lost and left to its TTL
                    due = rel;
                } else {
                    long done = firstSeen.receivedNanos();
                    boolean unfinished = false;
                    for (long[] r : rounds) {
                        if (r[0] <= firstSeen.receivedNanos() && r[1] >= appearedAfter) {
                            if (r[1] == Long.MAX_VALUE) unfinished = true;
                            else done = Math.max(done, r[1]);
                        }
                    }
                    if (unfinished) continue;    // a round with an unknown outcome: nothing to account against
                    due = done;
                }
                due += GRACE_NANOS;
                boolean excused = false;
                for (FaultWindow f : h.faults()) {
                    if (!f.nodes().contains(n) || CLIENT_SIDE.contains(f.kind()) || f.startNanos() > due) continue;
                    if (DELAYING.contains(f.kind())) {
                        if (f.endNanos() >= appearedAfter - DELAY_BOUND_NANOS) {
                            due = Math.max(due, f.endNanos() + DELAY_BOUND_NANOS + GRACE_NANOS);
                        }
                    } else if (f.endNanos() >= appearedAfter - LOST_LOOKBACK_NANOS) {
                        excused = true;
                    }
                }
                if (excused || lastSeen.sentNanos() <= due) continue;
                double over = (lastSeen.sentNanos() - due + GRACE_NANOS) / 1e6;
                longest = Math.max(longest, over);
                found.add(new Anomaly("key-outlived-accounting", String.format(
                        "node %d still held the lock key of %s %.1f ms after the library should have removed it (%s; "
                                + "PTTL then %d ms)", n, describe(en.getKey(), labelOf), over,
                        label != null ? "release invoked" : "every round running when it appeared had completed",
                        lastSeen.pttlMs()), due - GRACE_NANOS, lastSeen.sentNanos(), List.of()));
            }
        }
        return Result.of(NAME, found.isEmpty() ? Validity.VALID : Validity.INVALID, found,
                Map.of("keyLeaks", (double) found.size(), "keyLeakMs", longest));
    }

    private static String describe(String value, Map<String, String> labelOf) {
        String label = labelOf.get(value);
        String shortValue = value.length() > 8 ? value.substring(0, 8) + "…" : value;
        return label != null ? "lease " + label + " (" + shortValue + ")" : "a round that returned no lease (" + shortValue + ")";
    }

    private static Result unknown(String why) {
        return Result.of(NAME, Validity.UNKNOWN, List.of(new Anomaly("ground-truth-unknown", why, 0, 0, List.of())),
                Map.of());
    }
}
