package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.FaketimeServer;
import dev.redlock.chaos.history.History;
import java.time.Duration;
import java.util.List;

/**
 * Clock faults on a node: a forward jump and a fast-running clock. With {@link ClockMode#FAKETIME} the node's own
 * clock moves (libfaketime); with {@link ClockMode#SIMULATED_TTL} the node's lock keys get the TTLs that clock would
 * give them ({@link TtlRewriter}), which is what the fault does to expiries. Thread-safe.
 */
public final class ClockFaults implements FaultFamily {
    private final ChaosCluster cluster;
    private final FaultRecorder recorder;
    private final ClockMode clockMode;
    private final TtlRewriter ttl;

    ClockFaults(ChaosCluster cluster, FaultRecorder recorder, ClockMode clockMode, String keyPrefix) {
        this.cluster = cluster;
        this.recorder = recorder;
        this.clockMode = clockMode;
        this.ttl = new TtlRewriter(i -> cluster.node(i), keyPrefix);
    }

    @Override
    public FaultKind.Family family() {
        return FaultKind.Family.CLOCK;
    }

    public ClockMode clockMode() {
        return clockMode;
    }

    /**
     * Node {@code node}'s clock jumps {@code jump} forward. Simulated: every lock key on that node has its remaining
     * TTL cut by {@code jump} (at least to 1 ms). Healing does nothing to the node (a clock that jumped stays jumped)
     * and closes the window.
     */
    public FaultHandle clockJump(int node, Duration jump) {
        if (recorder.skipping(FaultKind.CLOCK_JUMP, "node " + node)) return recorder.noop(FaultKind.CLOCK_JUMP, "node " + node);
        long start = History.now();
        String seen = "";
        if (clockMode == ClockMode.FAKETIME) seen = "; " + ((FaketimeServer) cluster.node(node)).jumpChecked(jump);
        else ttl.shorten(node, pttl -> Math.max(1, pttl - jump.toMillis()));
        return recorder.open(FaultKind.CLOCK_JUMP, "node " + node + " clock +" + jump.toMillis() + "ms (" + clockMode + seen
                + ")", new int[] {node}, List.of(), false, start, () -> { });
    }

    /**
     * Node {@code node}'s clock runs {@code rate} fast (0.03 = 3 %) until healed. Simulated: a watcher thread gives
     * every new lock key on that node the TTL it would have on a fast clock ({@code pttl / (1 + rate)}).
     */
    public FaultHandle fastClock(int node, double rate) {
        if (recorder.skipping(FaultKind.FAST_CLOCK, "node " + node)) return recorder.noop(FaultKind.FAST_CLOCK, "node " + node);
        long start = History.now();
        if (clockMode == ClockMode.FAKETIME) {
            FaketimeServer.FastClock fast = ((FaketimeServer) cluster.node(node)).runFast(rate);
            return recorder.open(FaultKind.FAST_CLOCK, "node " + node + " clock x" + (1 + rate) + " (" + clockMode + ")",
                    new int[] {node}, List.of(), false, start,
                    () -> recorder.history().note("node " + node + ": " + fast.end()));
        }
        TtlRewriter.Watcher watcher = ttl.watch(node, rate);
        return recorder.open(FaultKind.FAST_CLOCK, "node " + node + " clock x" + (1 + rate) + " (" + clockMode
                + ": new lock keys get pttl/" + (1 + rate) + ")", new int[] {node}, List.of(), false, start, watcher::stop);
    }
}
