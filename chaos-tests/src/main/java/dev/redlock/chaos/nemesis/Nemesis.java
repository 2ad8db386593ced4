package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.workload.Resource;
import dev.redlock.testkit.RedisProcess;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The fault injector the scenarios call: a thin façade over the fault families ({@link NetworkFaults},
 * {@link ProcessFaults}, {@link ClockFaults}, {@link ClientFaults}), which share one record of open faults. Every
 * fault returns a {@link FaultHandle} that heals it in {@code close()}; {@link #healAll()} heals whatever is still
 * open (the runner calls it in {@code finally}). Each healed fault leaves a {@code FaultWindow} in the history.
 * Thread-safe.
 */
public final class Nemesis implements AutoCloseable {
    /**
     * Toxiproxy applies a toxic (or a disable) to open connections asynchronously: data already on its way through a
     * busy proxy can pass untouched. Every network fault waits this long ({@code -Dchaos.nemesis.settleMs}, default
     * 25 ms) before it returns, so the script's next step meets the fault.
     */
    static final long SETTLE_MS = Long.getLong("chaos.nemesis.settleMs", 25);

    /**
     * System property listing fault kinds to leave out, comma-separated ({@code kill,clock-jump,client-stall,...}):
     * the nemesis then only notes the fault in the history. For twin runs: a "violation expected" scenario must
     * turn red without its fault.
     */
    public static final String SKIP_PROPERTY = "chaos.nemesis.skip";

    private final FaultRecorder recorder;
    private final NetworkFaults network;
    private final ProcessFaults process;
    private final ClockFaults clock;
    private final ClientFaults client;

    /**
     * @param keyPrefix the clients' key prefix: the clock simulation shortens the TTL of lock keys under it
     */
    public Nemesis(ChaosCluster cluster, History history, Resource resource, ClockMode clockMode, String keyPrefix) {
        this.recorder = new FaultRecorder(history, parseSkip(System.getProperty(SKIP_PROPERTY, "")));
        this.network = new NetworkFaults(cluster, recorder);
        this.process = new ProcessFaults(cluster, recorder);
        this.clock = new ClockFaults(cluster, recorder, clockMode, keyPrefix);
        this.client = new ClientFaults(recorder, resource);
    }

    /** The families, one per {@link FaultKind.Family}, in its order. */
    public List<FaultFamily> families() {
        return List.of(network, process, clock, client);
    }

    public NetworkFaults network() { return network; }

    public ProcessFaults process() { return process; }

    public ClockFaults clock() { return clock; }

    public ClientFaults client() { return client; }

    /** The fault kinds this nemesis leaves out ({@link #SKIP_PROPERTY}). */
    public Set<FaultKind> skipped() {
        return recorder.skipped();
    }

    /** See {@link FaultRecorder#parseSkip(String)}. */
    static Set<FaultKind> parseSkip(String value) {
        return FaultRecorder.parseSkip(value);
    }

    public ClockMode clockMode() {
        return clock.clockMode();
    }

    // ---- network ----

    /** {@link NetworkFaults#cut(ProxySet, int...)}. */
    public FaultHandle cut(ProxySet set, int... nodes) { return network.cut(set, nodes); }

    /** Cuts nodes off from every client (main proxy set). */
    public FaultHandle cut(int... nodes) { return network.cut(ProxySet.MAIN, nodes); }

    /** {@link NetworkFaults#latency}. */
    public FaultHandle latency(ProxySet set, ToxicDirection dir, Duration latency, Duration jitter, int... nodes) {
        return network.latency(set, dir, latency, jitter, nodes);
    }

    /** {@link NetworkFaults#staggeredLatency}. */
    public FaultHandle staggeredLatency(ProxySet set, ToxicDirection dir, long[] latenciesMs) {
        return network.staggeredLatency(set, dir, latenciesMs);
    }

    /** {@link NetworkFaults#blackhole}. */
    public FaultHandle blackhole(ProxySet set, int... nodes) { return network.blackhole(set, nodes); }

    /** {@link NetworkFaults#resetPeer}. */
    public FaultHandle resetPeer(ProxySet set, int... nodes) { return network.resetPeer(set, nodes); }

    // ---- processes ----

    /** {@link ProcessFaults#kill}. */
    public FaultHandle kill(int node) { return process.kill(node); }

    /** {@link ProcessFaults#killAndRestart}. */
    public void killAndRestart(int node) { process.killAndRestart(node); }

    /** {@link ProcessFaults#pause}. */
    public FaultHandle pause(int node) { return process.pause(node); }

    /** {@link ProcessFaults#failover}. */
    public void failover(int node, RedisProcess replica) { process.failover(node, replica); }

    // ---- clocks ----

    /** {@link ClockFaults#clockJump}. */
    public FaultHandle clockJump(int node, Duration jump) { return clock.clockJump(node, jump); }

    /** {@link ClockFaults#fastClock}. */
    public FaultHandle fastClock(int node, double rate) { return clock.fastClock(node, rate); }

    // ---- clients and the resource ----

    /** {@link ClientFaults#stallClient(int, Duration)}. */
    public void stallClient(int clientId, Duration d) { client.stallClient(clientId, d); }

    /** {@link ClientFaults#stallClient(int, Duration, BooleanSupplier, Duration)}. */
    public void stallClient(int clientId, Duration min, BooleanSupplier until, Duration max) {
        client.stallClient(clientId, min, until, max);
    }

    /** {@link ClientFaults#resourceLatency(int, Duration)}. */
    public FaultHandle resourceLatency(int clientId, Duration d) { return client.resourceLatency(clientId, d); }

    /** {@link ClientFaults#resourceLatency(int, Duration, BooleanSupplier, Duration)}. */
    public FaultHandle resourceLatency(int clientId, Duration min, BooleanSupplier until, Duration max) {
        return client.resourceLatency(clientId, min, until, max);
    }

    // ---- bookkeeping ----

    /** Heals every fault still open (newest first); every heal is attempted. */
    public void healAll() {
        recorder.healAll();
    }

    @Override
    public void close() {
        healAll();
    }
}
