package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.History;
import dev.redlock.testkit.RedisProcess;
import eu.rekawek.toxiproxy.Proxy;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Process faults on a node's {@code redis-server}, through its pid: kill -9 (restarted on heal; with AOF off the node
 * comes back empty, which is persistence loss), SIGSTOP (SIGCONT on heal), and a failover to a replica behind the
 * node's stable proxy address. Thread-safe.
 */
public final class ProcessFaults implements FaultFamily {
    private static final Logger log = LoggerFactory.getLogger(ProcessFaults.class);

    private final ChaosCluster cluster;
    private final FaultRecorder recorder;

    ProcessFaults(ChaosCluster cluster, FaultRecorder recorder) {
        this.cluster = cluster;
        this.recorder = recorder;
    }

    @Override
    public FaultKind.Family family() {
        return FaultKind.Family.PROCESS;
    }

    /** kill -9 now; healing restarts the node (so a delayed restart is: kill, wait, close). */
    public FaultHandle kill(int node) {
        if (recorder.skipping(FaultKind.KILL, "node " + node)) return recorder.noop(FaultKind.KILL, "node " + node);
        RedisProcess n = cluster.node(node);
        long start = History.now();
        n.kill();
        return recorder.open(FaultKind.KILL, "kill -9 node " + node + (n.persistent() ? " (AOF always)" : " (no persistence)")
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
        if (recorder.skipping(FaultKind.PAUSE, "node " + node)) return recorder.noop(FaultKind.PAUSE, "node " + node);
        RedisProcess n = cluster.node(node);
        long start = History.now();
        n.pause();
        return recorder.open(FaultKind.PAUSE, "SIGSTOP node " + node + ", SIGCONT on heal", new int[] {node}, List.of(),
                true, start, n::resume);
    }

    /**
     * Fails node {@code node} over to {@code replica}: the replica is promoted ({@code REPLICAOF NO ONE}) and every
     * proxy of the node, in every proxy set, is re-pointed to it (Toxiproxy closes the proxies' open connections,
     * as a failover behind a stable address does). Not undone on heal: a failover is not rolled back.
     */
    public void failover(int node, RedisProcess replica) {
        if (recorder.skipping(FaultKind.FAILOVER, "node " + node)) return;
        long start = History.now();
        replica.command("REPLICAOF", "NO", "ONE");
        String upstream = cluster.toxiproxy().upstreamHost() + ":" + replica.port();
        for (ProxySet set : cluster.proxySets()) {
            Proxy p = cluster.proxy(set, node);
            Toxics.io(() -> p.setUpstream(upstream));
        }
        NetworkFaults.settle();
        try (FaultHandle h = recorder.open(FaultKind.FAILOVER, "node " + node + " failed over to the replica on port "
                + replica.port() + " (promoted, every proxy re-pointed)", new int[] {node}, List.of(), false, start,
                () -> { })) {
            log.debug("failed over {}", h);
        }
    }
}
