package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.NodeSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ground truth for safety: a client that believes it holds a lease while no majority of nodes holds the lease's
 * owner value is a violation ({@code believed-without-majority}), whether or not it wrote anything. What the client
 * believed is its {@link LeaseWindow}; what the nodes held comes from the {@link NodeSample}s of the ground-truth
 * sampler, on the same clock.
 *
 * <p><b>When a node surely lacks the value.</b> A sample shows the node's state at some unknown instant within
 * [sent, received], and names the process that answered ({@code run_id}). Readings with one {@code run_id} see one
 * continuous memory (a pause or a lost connection does not change it; a restart, with or without persistence, and a
 * failover do). In one memory the value is written by one SET NX of one round, so it appears at most once and, once
 * gone, stays gone. Hence, within one identity: after the last sample that showed it, the node lacks it from the
 * first sample without it (from that sample's reply time, the latest instant it can describe); before the first
 * sample that showed it, the node lacked it up to the send time of the last sample without it; an identity that
 * never showed it lacked it at every reading. Unanswered samples (node down or paused) tell nothing.
 *
 * <p><b>Restarts and failovers: as good as holding.</b> A node whose identity changed after the lease's acquire was
 * invoked (the first reading of the new identity came back after it) may have held the value and forgotten it, so
 * readings cannot say whether it ever held it: a kill and a restart fit between two 5 ms readings. It counts as
 * holding from its last reading under the old identity until it is first seen holding the value of another lease
 * granted by the new process (one whose acquire was invoked after the new identity was first read: a value reloaded
 * from a snapshot or an AOF written while an earlier lease held excludes others as well as this lease's value would).
 * The argument: what the lock must exclude is a second holder, and a node counts for a second holder only once it
 * grants a round that becomes a lease, which puts that lease's value on the node for the lease's life (release or
 * TTL), long enough to be read. Until then the node has made nobody a holder: with the amnesia guard it refuses
 * everyone during its quarantine; a grant to a round that returned no lease (the client counted the young node out,
 * d6; or lost the vote) makes no holder; without the guard (or with a quarantine too short) it grants the next
 * client, is read holding that lease's value, and from then on lacks this lease's value (scenario 3 and d1b are
 * still found). Eviction (d4a) and an early expiry are not an identity change: the node is seen without the value
 * under the same {@code run_id} and lacks it. What this gives up: a node that restarted and made nobody a holder
 * does not count against a lease, although it no longer holds the value; such a lease stays exclusive as long as the
 * node makes nobody a holder, and doing so is what breaks it, and is seen.
 * One assumption: a restarted node's reloaded memory (a snapshot, an AOF, a replica) holds no other client's live
 * key granted in another client's name; a reloaded value of an earlier lease is fine (see above).
 *
 * <p><b>Short leases.</b> "Never showed it" is only sound when the node would have shown the value had it held it
 * through the window: a granting node that keeps its identity holds the value from before the window starts until
 * after it ends (release or expiry), so once two consecutive readings of the node are closer together than the
 * window is long, one of them fell inside and would have seen it. A node read less often than that during a lease
 * (a lease shorter than the sampling interval, a paused node) counts as holding for that lease.
 *
 * <p><b>Tolerance.</b> The library's deadline is {@code start + ttl - elapsed - (ttl*driftFactor + fixedDrift)},
 * counted from before the first SET could run on any node, so on nodes whose clocks run within the drift allowance
 * every granting node still holds the value at every instant before the believed deadline. The one slack left is
 * Redis's millisecond expiry granularity, which {@code fixedDrift} (2 ms) already covers; a violation must still last
 * longer than {@link #SLACK_NANOS} (1 ms) to count. The sampling interval can hide a violation shorter than it,
 * never invent one: the rules above attribute every sample to the instant least favourable to a finding.
 *
 * <p>UNKNOWN when the sampler failed, when there are leases but no samples, or when a lease's owner value was not
 * recorded. Metrics: {@code believedWithoutMajority} (leases), {@code believedWithoutMajorityMs} (longest),
 * {@code samples}.
 */
public final class GroundTruthChecker implements Checker {
    public static final String NAME = "ground-truth";
    /** The shortest stretch that counts as a violation (Redis's expiry granularity). */
    static final long SLACK_NANOS = 1_000_000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check(History h) {
        List<LeaseWindow> leases = LeaseWindow.of(h);
        List<NodeSample> samples = h.samples();
        Map<String, String> values = h.ownerValues();
        Map<String, Long> leaseInvoked = new HashMap<>();   // owner value -> when its lease's acquire was invoked
        for (String v : values.values()) leaseInvoked.put(v, Long.MAX_VALUE);   // when unknown: granted afresh
        for (LeaseWindow w : leases) {
            String v = values.get(w.owner());
            if (v != null && !v.isEmpty()) leaseInvoked.merge(v, w.invoked(), Math::min);
        }
        if (!h.samplerErrors().isEmpty()) return unknown("the ground-truth sampler failed: " + h.samplerErrors());
        if (leases.isEmpty()) return Result.of(NAME, Validity.VALID, List.of(), metrics(0, 0, samples.size()));
        if (samples.isEmpty()) return unknown("no ground-truth samples for " + leases.size() + " leases");
        List<List<NodeSample>> byNode = NodeSamples.byNode(samples, h.nodes());
        List<Anomaly> found = new ArrayList<>();
        double longest = 0;
        for (LeaseWindow w : leases) {
            if (w.end() <= w.start()) continue;
            String value = values.get(w.owner());
            if (value == null || value.isEmpty()) return unknown("owner value of lease " + w.owner() + " not recorded");
            int[] list = h.listOf(w.client());   // the client's own node list: its first list[0] nodes
            int mustLack = list[0] - list[1] + 1;   // this many of them without the value: no quorum holds it
            List<long[]> lacking = new ArrayList<>();   // per node of the list: intervals where it surely lacked the value
            for (List<NodeSample> node : byNode.subList(0, list[0])) {
                // a node read too rarely to have seen the value if it held it all window long tells nothing here
                boolean readOften = NodeSamples.longestGap(node, w.start(), w.end()) < w.end() - w.start();
                lacking.add(readOften ? NodeSamples.lacking(node, value, w.invoked(), leaseInvoked) : new long[0]);
            }
            long[] worst = firstAndTotal(lacking, mustLack, w.start(), w.end());
            if (worst == null || worst[1] <= SLACK_NANOS) continue;
            longest = Math.max(longest, worst[1] / 1e6);
            found.add(new Anomaly("believed-without-majority", String.format(
                    "%s (client %d, token %d) believed it held the lock for %.1f ms while at most %d of %d nodes held its "
                            + "value (from %.1f ms after it acquired)",
                    w.owner(), w.client(), w.token(), worst[1] / 1e6, list[1] - 1, list[0],
                    (worst[0] - w.start()) / 1e6), worst[0], w.end(), List.of(w.client())));
        }
        return Result.of(NAME, found.isEmpty() ? Validity.VALID : Validity.INVALID, found,
                metrics(found.size(), longest, samples.size()));
    }

    /**
     * Within [from, to]: the first instant at which at least {@code k} nodes surely lacked the value, and the total
     * time they did; null when never. {@code lacking.get(n)} holds node n's intervals as {start0, end0, start1, ...}.
     */
    static long[] firstAndTotal(List<long[]> lacking, int k, long from, long to) {
        List<long[]> edges = new ArrayList<>();   // {time, +1 | -1}
        for (long[] iv : lacking) {
            for (int i = 0; i + 1 < iv.length; i += 2) {
                long s = Math.max(iv[i], from), e = Math.min(iv[i + 1], to);
                if (e <= s) continue;
                edges.add(new long[] {s, 1});
                edges.add(new long[] {e, -1});
            }
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int count = 0;
        long first = -1, total = 0, since = 0;
        for (long[] e : edges) {
            int before = count;
            count += (int) e[1];
            if (before < k && count >= k) {
                since = e[0];
                if (first < 0) first = e[0];
            } else if (before >= k && count < k) {
                total += e[0] - since;
            }
        }
        return first < 0 ? null : new long[] {first, total};
    }

    private static Map<String, Double> metrics(int leases, double longestMs, int samples) {
        return Map.of("believedWithoutMajority", (double) leases, "believedWithoutMajorityMs", longestMs,
                "samples", (double) samples);
    }

    private static Result unknown(String why) {
        return Result.of(NAME, Validity.UNKNOWN, List.of(new Anomaly("ground-truth-unknown", why, 0, 0, List.of())),
                Map.of());
    }
}
