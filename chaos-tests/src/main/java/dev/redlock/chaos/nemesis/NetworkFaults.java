package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.History;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Network faults between the clients and the nodes, through the proxies of a {@link ProxySet} (toxiproxy-java only):
 * a cut (proxies disabled), latency, a black hole, reset_peer. Each returns once the fault is in place and
 * {@link Nemesis#SETTLE_MS} has passed; healing removes it. Thread-safe.
 */
public final class NetworkFaults implements FaultFamily {
    private final ChaosCluster cluster;
    private final FaultRecorder recorder;

    NetworkFaults(ChaosCluster cluster, FaultRecorder recorder) {
        this.cluster = cluster;
        this.recorder = recorder;
    }

    @Override
    public FaultKind.Family family() {
        return FaultKind.Family.NETWORK;
    }

    /** Cuts nodes off from the clients of a proxy set: their proxies are disabled (connections closed, refused). */
    public FaultHandle cut(ProxySet set, int... nodes) {
        if (recorder.skipping(FaultKind.CUT, set + " " + Arrays.toString(nodes))) {
            return recorder.noop(FaultKind.CUT, Arrays.toString(nodes));
        }
        List<Proxy> ps = proxies(set, nodes);
        long start = History.now();
        for (Proxy p : ps) Toxics.io(p::disable);
        settle();
        return recorder.open(FaultKind.CUT, "proxies " + set + " of nodes " + Arrays.toString(nodes) + " disabled", nodes,
                set.clients(), set.isMain(), start, () -> {
                    for (Proxy p : ps) p.enable();
                });
    }

    /** Latency toxic ({@code latency ± jitter} ms per chunk) on the given direction of the nodes' proxies. */
    public FaultHandle latency(ProxySet set, ToxicDirection dir, Duration latency, Duration jitter, int... nodes) {
        if (recorder.skipping(FaultKind.LATENCY, set + " " + latency.toMillis() + "ms")) {
            return recorder.noop(FaultKind.LATENCY, set.name());
        }
        List<Toxic> toxics = new ArrayList<>();
        long start = History.now();
        for (Proxy p : proxies(set, nodes)) {
            toxics.add(Toxics.io(() -> p.toxics().latency(Toxics.toxicName("latency"), dir, latency.toMillis())
                    .setJitter(jitter.toMillis())));
        }
        settle();
        return recorder.open(FaultKind.LATENCY, set + " " + dir.name().toLowerCase() + " " + latency.toMillis() + "ms ±"
                + jitter.toMillis() + "ms", nodes, set.clients(), false, start, () -> Toxics.removeAll(toxics));
    }

    /** Per-node latency in one proxy set: {@code latenciesMs[i]} for node i (0 = none). */
    public FaultHandle staggeredLatency(ProxySet set, ToxicDirection dir, long[] latenciesMs) {
        if (recorder.skipping(FaultKind.LATENCY, set + " " + Arrays.toString(latenciesMs))) {
            return recorder.noop(FaultKind.LATENCY, set.name());
        }
        List<Toxic> toxics = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>();
        long start = History.now();
        for (int i = 0; i < latenciesMs.length; i++) {
            if (latenciesMs[i] <= 0) continue;
            Proxy p = cluster.proxy(set, i);
            long ms = latenciesMs[i];
            toxics.add(Toxics.io(() -> p.toxics().latency(Toxics.toxicName("latency"), dir, ms)));
            nodes.add(i);
        }
        settle();
        return recorder.open(FaultKind.LATENCY, set + " " + dir.name().toLowerCase() + " per node "
                + Arrays.toString(latenciesMs) + "ms",
                nodes.stream().mapToInt(Integer::intValue).toArray(), set.clients(), false, start,
                () -> Toxics.removeAll(toxics));
    }

    /**
     * Black hole: a {@code timeout} toxic with timeout 0 on both directions. Data is dropped, connections stay open
     * (commands time out instead of failing fast). Healing removes the toxics, which closes those connections.
     */
    public FaultHandle blackhole(ProxySet set, int... nodes) {
        if (recorder.skipping(FaultKind.BLACKHOLE, set + " " + Arrays.toString(nodes))) {
            return recorder.noop(FaultKind.BLACKHOLE, set.name());
        }
        List<Toxic> toxics = new ArrayList<>();
        long start = History.now();
        for (Proxy p : proxies(set, nodes)) {
            toxics.add(Toxics.io(() -> p.toxics().timeout(Toxics.toxicName("blackhole-up"), ToxicDirection.UPSTREAM, 0)));
            toxics.add(Toxics.io(() -> p.toxics().timeout(Toxics.toxicName("blackhole-down"), ToxicDirection.DOWNSTREAM, 0)));
        }
        settle();
        return recorder.open(FaultKind.BLACKHOLE, set + " timeout toxic (0 = never closes) both ways", nodes,
                set.clients(), set.isMain(), start, () -> Toxics.removeAll(toxics));
    }

    /** reset_peer toxic: each connection is reset (TCP RST) on its first data. */
    public FaultHandle resetPeer(ProxySet set, int... nodes) {
        if (recorder.skipping(FaultKind.RESET_PEER, set + " " + Arrays.toString(nodes))) {
            return recorder.noop(FaultKind.RESET_PEER, set.name());
        }
        List<Toxic> toxics = new ArrayList<>();
        long start = History.now();
        for (Proxy p : proxies(set, nodes)) {
            toxics.add(Toxics.io(() -> p.toxics().resetPeer(Toxics.toxicName("reset-peer"), ToxicDirection.UPSTREAM, 0)));
        }
        settle();
        return recorder.open(FaultKind.RESET_PEER, set + " reset_peer toxic, connections reset on first data", nodes,
                set.clients(), set.isMain(), start, () -> Toxics.removeAll(toxics));
    }

    /** Waits {@link Nemesis#SETTLE_MS} so that the next step meets a fault Toxiproxy applies asynchronously. */
    static void settle() {
        if (Nemesis.SETTLE_MS <= 0) return;
        try {
            Thread.sleep(Nemesis.SETTLE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Proxy> proxies(ProxySet set, int... nodes) {
        List<Proxy> ps = new ArrayList<>();
        for (int i : nodes) ps.add(cluster.proxy(set, i));
        return ps;
    }
}
