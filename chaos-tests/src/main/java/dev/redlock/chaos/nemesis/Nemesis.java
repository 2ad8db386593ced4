package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.FaketimeServer;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.FaultKind;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.workload.Resource;
import dev.redlock.testkit.RedisProcess;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault injector. Network faults go through Toxiproxy (toxiproxy-java only), process faults through the node's
 * pid, clock faults through libfaketime or their simulation ({@link ClockMode}), client faults through the workload.
 * Every fault returns a {@link FaultHandle} that heals it in {@code close()}; {@link #healAll()} heals whatever is
 * still open (the runner calls it in {@code finally}). Each healed fault leaves a {@link FaultWindow} in the history.
 * Thread-safe.
 */
public final class Nemesis implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Nemesis.class);
    /**
     * Toxiproxy applies a toxic (or a disable) to open connections asynchronously: data already on its way through a
     * busy proxy can pass untouched. Every network fault waits this long ({@code -Dchaos.nemesis.settleMs}, default
     * 25 ms) before it returns, so the script's next step meets the fault.
     */
    static final long SETTLE_MS = Long.getLong("chaos.nemesis.settleMs", 25);

    private final ChaosCluster cluster;
    private final History history;
    private final Resource resource;
    private final ClockMode clockMode;
    private final String keyPrefix;
    private final Set<FaultHandle> open = new LinkedHashSet<>();
    private final Set<FaultKind> skip;

    /**
     * @param keyPrefix the clients' key prefix: the clock simulation shortens the TTL of lock keys under it
     */
    public Nemesis(ChaosCluster cluster, History history, Resource resource, ClockMode clockMode, String keyPrefix) {
        this.cluster = cluster;
        this.history = history;
        this.resource = resource;
        this.clockMode = clockMode;
        this.keyPrefix = keyPrefix;
        this.skip = parseSkip(System.getProperty(SKIP_PROPERTY, ""));
    }

    /**
     * System property listing fault kinds to leave out, comma-separated ({@code kill,clock-jump,client-stall,...}):
     * the nemesis then only notes the fault in the history. For twin runs: a "violation expected" scenario must
     * turn red without its fault.
     */
    public static final String SKIP_PROPERTY = "chaos.nemesis.skip";

    /** The fault kinds this nemesis leaves out ({@link #SKIP_PROPERTY}). */
    public Set<FaultKind> skipped() {
        return skip;
    }

    /**
     * The kinds named in a {@link #SKIP_PROPERTY} value (labels, comma-separated, blanks ignored).
     *
     * @throws IllegalArgumentException naming the property and the known kinds, for an unknown label
     */
    static Set<FaultKind> parseSkip(String value) {
        Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        for (String label : value.split(",")) {
            if (label.isBlank()) continue;
            try {
                kinds.add(FaultKind.ofLabel(label.trim()));
            } catch (NoSuchElementException e) {
                throw new IllegalArgumentException(SKIP_PROPERTY + ": " + e.getMessage(), e);
            }
        }
        return Collections.unmodifiableSet(kinds);
    }

    private boolean skipping(FaultKind kind, String what) {
        if (!skip.contains(kind)) return false;
        history.note("fault SKIPPED (" + SKIP_PROPERTY + "): " + kind + " " + what);
        return true;
    }

    private FaultHandle noop(FaultKind kind, String what) {
        return new FaultHandle(this, null, kind, "skipped: " + what, List.of(), List.of(), false, History.now(), () -> { });
    }

    public ClockMode clockMode() {
        return clockMode;
    }

    // ---- network ----

    /** Cuts nodes off from the clients of a proxy set: their proxies are disabled (connections closed, refused). */
    public FaultHandle cut(ProxySet set, int... nodes) {
        if (skipping(FaultKind.CUT, set + " " + Arrays.toString(nodes))) {
            return noop(FaultKind.CUT, Arrays.toString(nodes));
        }
        List<Proxy> ps = proxies(set, nodes);
        long start = History.now();
        for (Proxy p : ps) Toxics.io(p::disable);
        settle();
        return open(FaultKind.CUT, "proxies " + set + " of nodes " + Arrays.toString(nodes) + " disabled", nodes,
                set.clients(), set.isMain(), start, () -> {
                    for (Proxy p : ps) p.enable();
                });
    }

    /** Cuts nodes off from every client (main proxy set). */
    public FaultHandle cut(int... nodes) {
        return cut(ProxySet.MAIN, nodes);
    }

    /** Latency toxic ({@code latency ± jitter} ms per chunk) on the given direction of the nodes' proxies. */
    public FaultHandle latency(ProxySet set, ToxicDirection dir, Duration latency, Duration jitter, int... nodes) {
        if (skipping(FaultKind.LATENCY, set + " " + latency.toMillis() + "ms")) {
            return noop(FaultKind.LATENCY, set.name());
        }
        List<Toxic> toxics = new ArrayList<>();
        long start = History.now();
        for (Proxy p : proxies(set, nodes)) {
            toxics.add(Toxics.io(() -> p.toxics().latency(Toxics.toxicName("latency"), dir, latency.toMillis())
                    .setJitter(jitter.toMillis())));
        }
        settle();
        return open(FaultKind.LATENCY, set + " " + dir.name().toLowerCase() + " " + latency.toMillis() + "ms ±"
                + jitter.toMillis() + "ms", nodes, set.clients(), false, start, () -> Toxics.removeAll(toxics));
    }

    /** Per-node upstream latency in one proxy set: {@code latencies[i]} for node i (0 = none). */
    public FaultHandle staggeredLatency(ProxySet set, ToxicDirection dir, long[] latenciesMs) {
        if (skipping(FaultKind.LATENCY, set + " " + Arrays.toString(latenciesMs))) {
            return noop(FaultKind.LATENCY, set.name());
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
        return open(FaultKind.LATENCY, set + " " + dir.name().toLowerCase() + " per node "
                + Arrays.toString(latenciesMs) + "ms",
                nodes.stream().mapToInt(Integer::intValue).toArray(), set.clients(), false, start,
                () -> Toxics.removeAll(toxics));
    }

    /**
     * Black hole: a {@code timeout} toxic with timeout 0 on both directions. Data is dropped, connections stay open
     * (commands time out instead of failing fast). Healing removes the toxics, which closes those connections.
     */
    public FaultHandle blackhole(ProxySet set, int... nodes) {
        if (skipping(FaultKind.BLACKHOLE, set + " " + Arrays.toString(nodes))) {
            return noop(FaultKind.BLACKHOLE, set.name());
        }
        List<Toxic> toxics = new ArrayList<>();
        long start = History.now();
        for (Proxy p : proxies(set, nodes)) {
            toxics.add(Toxics.io(() -> p.toxics().timeout(Toxics.toxicName("blackhole-up"), ToxicDirection.UPSTREAM, 0)));
            toxics.add(Toxics.io(() -> p.toxics().timeout(Toxics.toxicName("blackhole-down"), ToxicDirection.DOWNSTREAM, 0)));
        }
        settle();
        return open(FaultKind.BLACKHOLE, set + " timeout toxic (0 = never closes) both ways", nodes, set.clients(),
                set.isMain(), start, () -> Toxics.removeAll(toxics));
    }

    /** reset_peer toxic: each connection is reset (TCP RST) on its first data. */
    public FaultHandle resetPeer(ProxySet set, int... nodes) {
        if (skipping(FaultKind.RESET_PEER, set + " " + Arrays.toString(nodes))) {
            return noop(FaultKind.RESET_PEER, set.name());
        }
        List<Toxic> toxics = new ArrayList<>();
        long start = History.now();
        for (Proxy p : proxies(set, nodes)) {
            toxics.add(Toxics.io(() -> p.toxics().resetPeer(Toxics.toxicName("reset-peer"), ToxicDirection.UPSTREAM, 0)));
        }
        settle();
        return open(FaultKind.RESET_PEER, set + " reset_peer toxic, connections reset on first data", nodes,
                set.clients(), set.isMain(), start, () -> Toxics.removeAll(toxics));
    }

    // ---- processes ----

    /** kill -9 now; healing restarts the node (so a delayed restart is: kill, wait, close). */
    public FaultHandle kill(int node) {
        if (skipping(FaultKind.KILL, "node " + node)) return noop(FaultKind.KILL, "node " + node);
        RedisProcess n = cluster.node(node);
        long start = History.now();
        n.kill();
        return open(FaultKind.KILL, "kill -9 node " + node + (n.persistent() ? " (AOF always)" : " (no persistence)")
                + ", restart on heal", new int[] {node}, List.of(), true, start, n::restart);
    }

    /** kill -9 and restart at once; the window spans the time the node was down. */
    public void killAndRestart(int node) {
        try (FaultHandle h = kill(node)) {
            log.debug("killed {}", h);
        }
    }

    /** SIGSTOP; healing sends SIGCONT. */
    public FaultHandle pause(int node) {
        if (skipping(FaultKind.PAUSE, "node " + node)) return noop(FaultKind.PAUSE, "node " + node);
        RedisProcess n = cluster.node(node);
        long start = History.now();
        n.pause();
        return open(FaultKind.PAUSE, "SIGSTOP node " + node + ", SIGCONT on heal", new int[] {node}, List.of(), true, start,
                n::resume);
    }

    /**
     * Fails node {@code node} over to {@code replica}: the replica is promoted ({@code REPLICAOF NO ONE}) and every
     * proxy of the node, in every proxy set, is re-pointed to it (Toxiproxy closes the proxies' open connections,
     * as a failover behind a stable address does). Not undone on heal: a failover is not rolled back.
     */
    public void failover(int node, RedisProcess replica) {
        if (skipping(FaultKind.FAILOVER, "node " + node)) return;
        long start = History.now();
        replica.command("REPLICAOF", "NO", "ONE");
        String upstream = cluster.toxiproxy().upstreamHost() + ":" + replica.port();
        for (ProxySet set : cluster.proxySets()) {
            Proxy p = cluster.proxy(set, node);
            Toxics.io(() -> p.setUpstream(upstream));
        }
        settle();
        try (FaultHandle h = open(FaultKind.FAILOVER, "node " + node + " failed over to the replica on port " + replica.port()
                + " (promoted, every proxy re-pointed)", new int[] {node}, List.of(), false, start, () -> { })) {
            log.debug("failed over {}", h);
        }
    }

    // ---- clocks ----

    /**
     * Node {@code node}'s clock jumps {@code jump} forward. In {@link ClockMode#SIMULATED_TTL} mode: every lock key
     * on that node has its remaining TTL cut by {@code jump} (at least to 1 ms), which is what the jump does to
     * expiries. Healing does nothing to the node (a clock that jumped stays jumped) and closes the window.
     */
    public FaultHandle clockJump(int node, Duration jump) {
        if (skipping(FaultKind.CLOCK_JUMP, "node " + node)) return noop(FaultKind.CLOCK_JUMP, "node " + node);
        long start = History.now();
        String seen = "";
        if (clockMode == ClockMode.FAKETIME) seen = "; " + ((FaketimeServer) cluster.node(node)).jumpChecked(jump);
        else shortenKeys(node, pttl -> Math.max(1, pttl - jump.toMillis()));
        return open(FaultKind.CLOCK_JUMP, "node " + node + " clock +" + jump.toMillis() + "ms (" + clockMode + seen + ")",
                new int[] {node}, List.of(), false, start, () -> { });
    }

    /**
     * Node {@code node}'s clock runs {@code rate} fast (0.03 = 3 %) until healed. Simulated mode: a watcher thread
     * gives every new lock key on that node the TTL it would have on a fast clock ({@code pttl / (1 + rate)}).
     */
    public FaultHandle fastClock(int node, double rate) {
        if (skipping(FaultKind.FAST_CLOCK, "node " + node)) return noop(FaultKind.FAST_CLOCK, "node " + node);
        long start = History.now();
        if (clockMode == ClockMode.FAKETIME) {
            FaketimeServer.FastClock fast = ((FaketimeServer) cluster.node(node)).runFast(rate);
            return open(FaultKind.FAST_CLOCK, "node " + node + " clock x" + (1 + rate) + " (" + clockMode + ")",
                    new int[] {node}, List.of(), false, start, () -> history.note("node " + node + ": " + fast.end()));
        }
        Map<String, String> seen = new HashMap<>();
        Thread watcher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    RedisProcess n = cluster.node(node);
                    if (n.isRunning() && !n.isPaused()) {
                        for (String k : lockKeys(n)) {
                            String v = n.command("GET", k);
                            if (v.isEmpty() || v.equals(seen.get(k))) continue;
                            seen.put(k, v);
                            long pttl = Long.parseLong(n.command("PTTL", k));
                            if (pttl > 0) n.command("PEXPIRE", k, Long.toString(Math.max(1, (long) (pttl / (1 + rate)))));
                        }
                    }
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    log.debug("fast-clock watcher", e);
                }
            }
        }, "fast-clock-n" + node);
        watcher.setDaemon(true);
        watcher.start();
        return open(FaultKind.FAST_CLOCK, "node " + node + " clock x" + (1 + rate) + " (" + clockMode + ": new lock keys get pttl/"
                + (1 + rate) + ")", new int[] {node}, List.of(), false, start, () -> {
                    watcher.interrupt();
                    watcher.join(2000);
                });
    }

    // ---- clients and the resource ----

    /** The calling client thread stops for {@code d} (a GC pause); recorded as a client-stall window. */
    public void stallClient(int client, Duration d) {
        if (skipping(FaultKind.CLIENT_STALL, "client " + client)) return;
        long start = History.now();
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            history.fault(new FaultWindow(start, History.now(), FaultKind.CLIENT_STALL, "client " + client + " paused "
                    + d.toMillis() + "ms", List.of(), List.of(client), false));
        }
    }

    /**
     * Like {@link #stallClient(int, Duration)}, but the pause lasts at least {@code min} and then until {@code until}
     * holds (at most {@code max}): forces "the pause ends after X happened".
     */
    public void stallClient(int client, Duration min, BooleanSupplier until, Duration max) {
        if (skipping(FaultKind.CLIENT_STALL, "client " + client)) return;
        long start = History.now();
        try {
            holdFor(start, min, until, max);
        } finally {
            history.fault(new FaultWindow(start, History.now(), FaultKind.CLIENT_STALL, "client " + client + " paused "
                    + (History.now() - start) / 1_000_000 + "ms (at least " + min.toMillis() + "ms)", List.of(),
                    List.of(client), false));
        }
    }

    /** Every write {@code client} issues lands {@code d} later (latency on its path to the resource). */
    public FaultHandle resourceLatency(int client, Duration d) {
        if (skipping(FaultKind.RESOURCE_LATENCY, "client " + client)) {
            return noop(FaultKind.RESOURCE_LATENCY, "client " + client);
        }
        long start = History.now();
        resource.setPathLatency(client, d);
        return open(FaultKind.RESOURCE_LATENCY, "client " + client + " writes delayed " + d.toMillis() + "ms in transit",
                new int[0], List.of(client), false, start, () -> resource.setPathLatency(client, Duration.ZERO));
    }

    /**
     * Every write {@code client} issues is held in transit at least {@code min}, then until {@code until} holds (at
     * most {@code max}) before it lands.
     */
    public FaultHandle resourceLatency(int client, Duration min, BooleanSupplier until, Duration max) {
        if (skipping(FaultKind.RESOURCE_LATENCY, "client " + client)) {
            return noop(FaultKind.RESOURCE_LATENCY, "client " + client);
        }
        long start = History.now();
        resource.setPathDelay(client, () -> holdFor(History.now(), min, until, max));
        return open(FaultKind.RESOURCE_LATENCY, "client " + client + " writes held in transit >= " + min.toMillis() + "ms",
                new int[0], List.of(client), false, start, () -> resource.setPathDelay(client, null));
    }

    private static void holdFor(long start, Duration min, BooleanSupplier until, Duration max) {
        long minEnd = start + min.toNanos();
        long maxEnd = start + max.toNanos();
        try {
            while (true) {
                long now = History.now();
                if (now >= maxEnd || (now >= minEnd && until.getAsBoolean())) return;
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- bookkeeping ----

    /** Heals every fault still open (newest first); every heal is attempted. */
    public void healAll() {
        List<FaultHandle> copy;
        synchronized (open) {
            copy = new ArrayList<>(open);
        }
        Collections.reverse(copy);
        for (FaultHandle h : copy) {
            try {
                h.close();
            } catch (RuntimeException e) {
                log.warn("heal of {} failed", h, e);
            }
        }
    }

    @Override
    public void close() {
        healAll();
    }

    void forget(FaultHandle h) {
        synchronized (open) {
            open.remove(h);
        }
    }

    private FaultHandle open(FaultKind kind, String description, int[] nodes, List<Integer> clients, boolean unavailable,
                             long start, FaultHandle.Healer healer) {
        FaultHandle h = new FaultHandle(this, history, kind, description, Arrays.stream(nodes).boxed().toList(),
                clients, unavailable, start, healer);
        synchronized (open) {
            open.add(h);
        }
        history.note("fault: " + kind + " " + description);
        return h;
    }

    private List<String> lockKeys(RedisProcess n) {
        List<String> out = new ArrayList<>();
        for (String k : n.keys(keyPrefix + "*")) {
            if (!k.startsWith(keyPrefix + "__") && !k.startsWith(keyPrefix + "warmup")) out.add(k);
        }
        return out;
    }

    private void shortenKeys(int node, LongUnaryOperator newTtl) {
        RedisProcess n = cluster.node(node);
        for (String k : lockKeys(n)) {
            long pttl = Long.parseLong(n.command("PTTL", k));
            if (pttl > 0) n.command("PEXPIRE", k, Long.toString(newTtl.applyAsLong(pttl)));
        }
    }

    private static void settle() {
        if (SETTLE_MS <= 0) return;
        try {
            Thread.sleep(SETTLE_MS);
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
