package dev.redlock.chaos.cluster;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.Toxic;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N independent redis-server processes, each reachable by clients only through Toxiproxy proxies.
 *
 * <p>Every node has one proxy in the {@value #MAIN} proxy set; a scenario can ask for more sets
 * ({@link #uris(String)}), e.g. one per client, so a fault can hit one client's path to a node and not another's.
 * Proxies are named {@code rl-<run>-<set>-n<i>} and listen on free loopback ports.
 *
 * <p>{@link #close()} deletes this cluster's proxies and kills every node by pid, each step attempted even when an
 * earlier one failed; a constructor failure cleans up what it had started. Lifecycle calls are not thread-safe;
 * node and proxy operations from the nemesis thread are.
 */
public final class ChaosCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChaosCluster.class);
    private static final AtomicInteger RUNS = new AtomicInteger();
    /** The proxy set every cluster has. */
    public static final String MAIN = "main";

    private final Toxiproxy toxiproxy;
    private final String run;
    private final List<ServerProcess> nodes;
    private final Map<String, List<Proxy>> proxies = new LinkedHashMap<>();

    private ChaosCluster(Toxiproxy toxiproxy, String run, List<ServerProcess> nodes) {
        this.toxiproxy = toxiproxy;
        this.run = run;
        this.nodes = List.copyOf(nodes);
    }

    /** Starts {@code n} nodes (AOF {@code appendfsync always} when {@code aof}) and their main proxies. */
    public static ChaosCluster start(Toxiproxy toxiproxy, int n, boolean aof) {
        return start(toxiproxy, n, i -> TestkitServer.start(aof));
    }

    /** Starts {@code n} nodes made by {@code factory} (e.g. one of them under libfaketime) and their main proxies. */
    public static ChaosCluster start(Toxiproxy toxiproxy, int n, IntFunction<ServerProcess> factory) {
        List<ServerProcess> started = new ArrayList<>();
        ChaosCluster c = null;
        try {
            for (int i = 0; i < n; i++) started.add(factory.apply(i));
            c = new ChaosCluster(toxiproxy, ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet(), started);
            c.uris(MAIN);
            return c;
        } catch (RuntimeException e) {
            if (c != null) {
                c.close();
            } else {
                for (ServerProcess s : started) {
                    try {
                        s.close();
                    } catch (RuntimeException e2) {
                        e.addSuppressed(e2);
                    }
                }
            }
            throw e;
        }
    }

    /** A plain redis-server node (testkit), without or with AOF {@code appendfsync always}. */
    public static ServerProcess plainNode(boolean aof) {
        return TestkitServer.start(aof);
    }

    public int size() {
        return nodes.size();
    }

    public Toxiproxy toxiproxy() {
        return toxiproxy;
    }

    /** The node process, for the nemesis and for inspection (direct, not proxied). */
    public ServerProcess node(int i) {
        return nodes.get(i);
    }

    public List<ServerProcess> nodes() {
        return nodes;
    }

    /** Proxy URIs of the main set, in node order: what clients get. */
    public List<String> uris() {
        return uris(MAIN);
    }

    /** Proxy URIs of a proxy set, creating the set's proxies on first use. */
    public synchronized List<String> uris(String set) {
        List<Proxy> ps = proxies.get(set);
        if (ps == null) {
            ps = new ArrayList<>();
            proxies.put(set, ps);
            for (int i = 0; i < nodes.size(); i++) {
                String name = "rl-" + run + "-" + set + "-n" + i;
                try {
                    ps.add(toxiproxy.client().createProxy(name, toxiproxy.listenHost() + ":0",
                            toxiproxy.upstreamHost() + ":" + nodes.get(i).port()));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot create proxy " + name, e);
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (Proxy p : ps) out.add("redis://" + p.getListen());
        return out;
    }

    /** The proxy of node {@code i} in a set (created with the set). */
    public synchronized Proxy proxy(String set, int i) {
        uris(set);
        return proxies.get(set).get(i);
    }

    /** Every proxy set created so far. */
    public synchronized List<String> proxySets() {
        return List.copyOf(proxies.keySet());
    }

    /** Re-enables every proxy of this cluster and removes every toxic from it (nothing else on the server). */
    public synchronized void healProxies() {
        for (List<Proxy> ps : proxies.values()) {
            for (Proxy p : ps) {
                try {
                    for (Toxic t : p.toxics().getAll()) t.remove();
                    p.enable();
                } catch (IOException e) {
                    log.warn("could not heal proxy {}", p.getName(), e);
                }
            }
        }
    }

    /** Resumes paused nodes and restarts killed ones. */
    public void healNodes() {
        for (ServerProcess n : nodes) {
            if (n.isPaused()) n.resume();
            if (!n.isRunning()) n.restart();
        }
    }

    /**
     * Waits until node {@code i} answers PING through its proxy in {@code set}.
     *
     * @return whether it did within {@code timeout}
     */
    public boolean awaitReachable(String set, int i, Duration timeout) {
        String listen = proxy(set, i).getListen();
        int colon = listen.lastIndexOf(':');
        String host = listen.substring(0, colon);
        int port = Integer.parseInt(listen.substring(colon + 1));
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 200);
                s.setSoTimeout(300);
                s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                InputStream in = s.getInputStream();
                byte[] buf = new byte[7];
                int n = in.read(buf);
                if (n > 0 && new String(buf, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG")) return true;
            } catch (IOException e) {
                // not yet
            }
            Toxiproxy.sleep(5);
        } while (System.nanoTime() < deadline);
        return false;
    }

    /** Deletes this cluster's proxies and kills every node; every step is tried. Idempotent. */
    @Override
    public synchronized void close() {
        RuntimeException first = null;
        for (List<Proxy> ps : proxies.values()) {
            for (Proxy p : ps) {
                try {
                    p.delete();
                } catch (IOException | RuntimeException e) {
                    log.debug("could not delete proxy {}", p.getName(), e);
                }
            }
        }
        proxies.clear();
        for (ServerProcess n : nodes) {
            try {
                n.close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
                else first.addSuppressed(e);
            }
        }
        if (first != null) throw first;
    }

    @Override
    public String toString() {
        return "ChaosCluster[" + run + ", " + nodes + "]";
    }
}
