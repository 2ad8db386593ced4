package dev.redlock.sim.simulator;

import dev.redlock.sim.simulator.Fault.Kind;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seed's fault schedule, drawn from the seed (its own random stream, so the workload's choices do not move when
 * faults are removed by the shrinker): a Jepsen-style mix of partitions, one-way cuts, resets, kills and power losses
 * (with each node's persistence), restart storms, node and client pauses (some begin with a call in flight), clock
 * faults within the tolerance, RDB snapshots, delay spikes and lost fence entries (one node's, or an eviction wave
 * over several). Never more than the configuration tolerates: at no moment does a client have more than
 * {@code N - quorum} nodes out of reach (killed, paused, partitioned, cut or slowed), and every clock stays within
 * the preflight tolerance. Restart storms may take any number of nodes' memory (the amnesia guard is what tolerates
 * that) and count as out of reach only for their few milliseconds of downtime, not at all here.
 */
final class Nemesis {
    private static final Kind[] WEIGHTED = weighted();
    /** How long a pause "with a call in flight" waits for the client's next send before it lapses. */
    static final long IN_FLIGHT_WINDOW_NS = 50_000_000;

    private Nemesis() {}

    private static Kind[] weighted() {
        List<Kind> w = new ArrayList<>();
        add(w, Kind.PARTITION, 12);
        add(w, Kind.CUT_TO_NODE, 4);
        add(w, Kind.CUT_TO_CLIENT, 4);
        add(w, Kind.RESET, 10);
        add(w, Kind.KILL, 8);
        add(w, Kind.POWER_LOSS, 3);
        add(w, Kind.NODE_PAUSE, 6);
        add(w, Kind.CLIENT_PAUSE, 10);
        add(w, Kind.CLIENT_PAUSE_IN_FLIGHT, 6);
        add(w, Kind.NODE_CLOCK_RATE, 3);
        add(w, Kind.NODE_CLOCK_BACK, 3);
        add(w, Kind.CLIENT_CLOCK_STEP, 6);
        add(w, Kind.SNAPSHOT, 8);
        add(w, Kind.DELAY_SPIKE, 12);
        add(w, Kind.FENCE_LOSS, 4);
        add(w, Kind.RESTART_STORM, 5);
        return w.toArray(Kind[]::new);
    }

    private static void add(List<Kind> w, Kind k, int n) {
        for (int i = 0; i < n; i++) w.add(k);
    }

    /** The schedule of a seed running {@code ops} operations over about {@code horizonNs} of virtual time. */
    static List<Fault> schedule(Plan plan, int ops, long horizonNs) {
        SplittableRandom r = new SplittableRandom(plan.seed * 0x9E3779B97F4A7C15L + 17);
        int wanted = Math.max(2, ops / 6);
        List<Fault> out = new ArrayList<>();
        long maxTtlNs = plan.maxTtlMs() * 1_000_000;
        long[] nodeClock = plan.nodeClockOffsetUs.clone();
        for (int attempt = 0; attempt < wanted * 4 && out.size() < wanted; attempt++) {
            Kind k = WEIGHTED[r.nextInt(WEIGHTED.length)];
            long at = r.nextLong(Math.max(1, horizonNs));
            int node = r.nextInt(plan.nodes);
            int client = r.nextInt(plan.clients);
            long d = 0;
            long param = 0;
            switch (k) {
                case PARTITION, CUT_TO_NODE, CUT_TO_CLIENT -> d = ms(r, 2, 40) + (r.nextInt(4) == 0 ? r.nextLong(2 * maxTtlNs) : 0);
                case KILL, POWER_LOSS -> d = ms(r, 1, 30) + (r.nextInt(3) == 0 ? r.nextLong(2 * maxTtlNs) : 0);
                case NODE_PAUSE -> d = ms(r, 1, 20) + (r.nextInt(3) == 0 ? r.nextLong(maxTtlNs) : 0);
                case CLIENT_PAUSE -> d = ms(r, 1, 20) + (r.nextInt(2) == 0 ? r.nextLong(2 * maxTtlNs) : 0);
                case CLIENT_PAUSE_IN_FLIGHT -> {
                    param = ms(r, 1, 20) + (r.nextInt(2) == 0 ? r.nextLong(2 * maxTtlNs) : 0);
                    d = IN_FLIGHT_WINDOW_NS + param;
                }
                case DELAY_SPIKE -> {
                    d = ms(r, 10, 200);
                    // mostly slow grants that still arrive within the client's node timeout (a round that takes long
                    // to decide: what validity arithmetic must account for), sometimes beyond it
                    long timeout = plan.client[client].nodeTimeoutMs;
                    param = r.nextInt(4) == 0 ? ms(r, 1, 3 * plan.maxNodeTimeoutMs()) : ms(r, 1, Math.max(1, timeout / 3));
                }
                case NODE_CLOCK_RATE -> {
                    d = ms(r, 20, 1000);
                    param = r.nextLong((long) (Plan.DRIFT_FACTOR / 2 * 1e6) + 1);   // ppm, up to half the allowance
                }
                case NODE_CLOCK_BACK -> {
                    long room = nodeClock[node] + plan.clockBoundUs;   // how far it may go back and stay in bounds
                    if (room <= 0) continue;
                    param = 1 + r.nextLong(room);
                    nodeClock[node] -= param;
                }
                case CLIENT_CLOCK_STEP -> param = r.nextLong(-plan.clockBoundUs, plan.clockBoundUs + 1);
                case FENCE_LOSS -> {
                    // one node's entry (its retention ran out), or an eviction wave: the same memory pressure on
                    // several nodes evicts the same cold key on each
                    long mask = 1L << node;
                    if (r.nextBoolean()) mask |= r.nextLong(1L << plan.nodes);
                    param = r.nextInt(plan.resources.length) | mask << 8;
                }
                case RESTART_STORM -> {
                    d = ms(r, 1, 10);
                    param = r.nextLong(1, 1L << plan.nodes);
                    if (Long.bitCount(param) < 2) param |= 1L << ((node + 1) % plan.nodes) | 1L << node;
                }
                default -> { }
            }
            Fault f = new Fault(0, at, k, node, client, d, param);
            if (!fits(plan, out, f)) continue;
            out.add(f);
        }
        out.sort(Comparator.comparingLong(Fault::at));
        List<Fault> indexed = new ArrayList<>(out.size());
        for (int i = 0; i < out.size(); i++) {
            Fault f = out.get(i);
            indexed.add(new Fault(i, f.at(), f.kind(), f.node(), f.client(), f.durationNs(), f.param()));
        }
        return indexed;
    }

    private static long ms(SplittableRandom r, long lo, long hi) {
        return (lo + r.nextLong(Math.max(1, hi - lo + 1))) * 1_000_000;
    }

    /**
     * Whether {@code f} can join the schedule: no two faults of one family on one target overlap (a heal would end
     * both), and while it lasts no client has more than {@code N - quorum} nodes out of reach.
     */
    private static boolean fits(Plan plan, List<Fault> planned, Fault f) {
        for (Fault g : planned) {
            if (!overlap(f, g)) continue;
            if (sameTarget(f, g)) return false;
        }
        if (!f.kind().impairs()) return true;
        int tolerated = plan.nodes - plan.quorum;
        for (int c = 0; c < plan.clients; c++) {
            BitSet out = new BitSet();
            if (affects(f, c)) out.set(f.node());
            else continue;
            for (Fault g : planned) if (g.kind().impairs() && overlap(f, g) && affects(g, c)) out.set(g.node());
            if (out.cardinality() > tolerated) return false;
        }
        return true;
    }

    private static boolean affects(Fault f, int client) {
        return f.kind().nodeWide() || f.client() == client;
    }

    private static boolean overlap(Fault a, Fault b) {
        return a.at() <= b.end() && b.at() <= a.end();
    }

    /** Faults that one heal would both end, or that act on one node's process at once. */
    private static boolean sameTarget(Fault a, Fault b) {
        boolean processA = a.kind().nodeWide() || a.kind() == Kind.NODE_CLOCK_RATE;
        boolean processB = b.kind().nodeWide() || b.kind() == Kind.NODE_CLOCK_RATE;
        if (a.kind() == Kind.RESTART_STORM || b.kind() == Kind.RESTART_STORM) {
            Fault storm = a.kind() == Kind.RESTART_STORM ? a : b;
            Fault other = storm == a ? b : a;
            if (other.kind() == Kind.RESTART_STORM) return true;
            return other.kind().nodeWide() && (storm.param() & (1L << other.node())) != 0;
        }
        if (processA && processB) return a.node() == b.node() && (a.kind() != Kind.NODE_CLOCK_RATE) == (b.kind() != Kind.NODE_CLOCK_RATE);
        boolean linkA = isLink(a.kind());
        boolean linkB = isLink(b.kind());
        if (linkA && linkB) return a.node() == b.node() && a.client() == b.client();
        if (isClientPause(a.kind()) && isClientPause(b.kind())) return a.client() == b.client();
        return false;
    }

    private static boolean isClientPause(Kind k) {
        return k == Kind.CLIENT_PAUSE || k == Kind.CLIENT_PAUSE_IN_FLIGHT;
    }

    private static boolean isLink(Kind k) {
        return k == Kind.PARTITION || k == Kind.CUT_TO_NODE || k == Kind.CUT_TO_CLIENT || k == Kind.DELAY_SPIKE;
    }
}
