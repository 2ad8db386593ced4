package dev.redlock.chaos.cluster;

import dev.redlock.internal.Diagnostics;
import dev.redlock.internal.RedisUri;
import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.RedisProcess;
import dev.redlock.testkit.Resp;
import dev.redlock.testkit.Sleep;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.Toxic;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 * <p>Every node has one proxy in the {@link ProxySet#MAIN main} proxy set; a scenario can ask for more sets
 * ({@link #uris(ProxySet)}), e.g. one per client, so a fault can hit one client's path to a node and not another's.
 * Proxies are named {@code rl-<run>-<set>-n<i>} and listen on free loopback ports.
 *
 * <p>{@link #close()} deletes this cluster's proxies and kills every node by pid, each step attempted even when an
 * earlier one failed; a constructor failure cleans up what it had started. Lifecycle calls are not thread-safe;
 * node and proxy operations from the nemesis thread are.
 *
 * <p>{@link #attach} makes a cluster of nodes the harness did not start ({@link ExternalServer}), each reached through
 * a proxy that already exists on the Toxiproxy server (found by its listen port): those proxies are the main set and
 * are never created or deleted, only healed (toxics named {@value #TOXIC_PREFIX}... removed, proxy enabled). Such a
 * cluster has no other proxy sets and no process control ({@link #external()}).
 */
public final class ChaosCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChaosCluster.class);
    private static final AtomicInteger RUNS = new AtomicInteger();
    /** Prefix of every toxic the harness adds; healing an external proxy removes only these. */
    public static final String TOXIC_PREFIX = "chaos-";

    private final Toxiproxy toxiproxy;
    private final String run;
    private final List<RedisProcess> nodes;
    private final Map<ProxySet, List<Proxy>> proxies = new LinkedHashMap<>();
    private final boolean external;
    private final Path server;

    private ChaosCluster(Toxiproxy toxiproxy, String run, List<RedisProcess> nodes, boolean external, Path server) {
        this.toxiproxy = toxiproxy;
        this.run = run;
        this.nodes = List.copyOf(nodes);
        this.external = external;
        this.server = server;
    }

    /**
     * A cluster of external nodes: {@code uris} are the addresses clients use, each the listen address of an existing
     * proxy on {@code toxiproxy} (matched by port). Heals those proxies (a previous run may have left its toxics)
     * and waits until every node answers PING through them.
     *
     * @throws IllegalArgumentException when a URI is malformed or no proxy listens on its port
     * @throws IllegalStateException    when a node does not answer through its proxy
     */
    public static ChaosCluster attach(Toxiproxy toxiproxy, List<String> uris) {
        List<RedisProcess> servers = new ArrayList<>();
        for (String u : uris) servers.add(ExternalServer.of(u));
        List<Proxy> main = findProxies(toxiproxy, uris);
        ChaosCluster c = new ChaosCluster(toxiproxy, ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet(),
                servers, true, null);
        c.proxies.put(ProxySet.MAIN, new ArrayList<>(main));
        c.healProxies();
        for (int i = 0; i < servers.size(); i++) {
            if (!c.awaitReachable(ProxySet.MAIN, i, Duration.ofSeconds(3))) {
                throw new IllegalStateException("external node " + RedisUri.redact(uris.get(i))
                        + " does not answer PING through proxy " + main.get(i).getName() + " (listen "
                        + main.get(i).getListen() + ", upstream " + main.get(i).getUpstream() + ")");
            }
        }
        return c;
    }

    /**
     * For each node URI, the proxy on {@code toxiproxy} whose listen port is the URI's port (listen may be
     * {@code 0.0.0.0:p}, {@code 127.0.0.1:p}, {@code [::]:p}...).
     *
     * @throws IllegalArgumentException naming the URI and the proxies found, when one has no proxy, or two URIs share
     *                                  one
     */
    public static List<Proxy> findProxies(Toxiproxy toxiproxy, List<String> uris) {
        List<Proxy> all;
        try {
            all = toxiproxy.client().getProxies();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the proxies of " + toxiproxy.apiUrl(), e);
        }
        List<Proxy> out = new ArrayList<>();
        for (String uri : uris) {
            int port = ExternalServer.of(uri).port();
            Proxy match = null;
            for (Proxy p : all) if (listenPort(p.getListen()) == port) match = p;
            if (match == null) {
                StringBuilder found = new StringBuilder();
                for (Proxy p : all) {
                    found.append(found.length() == 0 ? "" : ", ").append(p.getName()).append(" (listen ")
                            .append(p.getListen()).append(" -> ").append(p.getUpstream()).append(')');
                }
                throw new IllegalArgumentException("no proxy on Toxiproxy " + toxiproxy.apiUrl() + " listens on port "
                        + port + " of node " + RedisUri.redact(uri) + "; proxies found: "
                        + (all.isEmpty() ? "none" : found) + ". Each --nodes URI must be the listen address of "
                        + "the node's proxy (e.g. redis://127.0.0.1:21001 for docker-compose.redlock.yml's redis1)");
            }
            for (int j = 0; j < out.size(); j++) {
                if (out.get(j).getName().equals(match.getName())) {
                    throw new IllegalArgumentException("nodes " + RedisUri.redact(uris.get(j)) + " and "
                            + RedisUri.redact(uri) + " both map to proxy " + match.getName());
                }
            }
            out.add(match);
        }
        return out;
    }

    /** The port of a Toxiproxy listen address ({@code host:port}, {@code [v6]:port}); -1 when there is none. */
    public static int listenPort(String listen) {
        if (listen == null) return -1;
        int colon = listen.lastIndexOf(':');
        try {
            return colon < 0 ? -1 : Integer.parseInt(listen.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Starts {@code n} nodes (AOF {@code appendfsync always} when {@code aof}) and their main proxies. */
    public static ChaosCluster start(Toxiproxy toxiproxy, int n, boolean aof) {
        return start(toxiproxy, n, RedisBinary.path(), i -> plainNode(aof));
    }

    /**
     * Starts {@code n} nodes made by {@code factory} (e.g. one of them under libfaketime) and their main proxies;
     * {@code server} is the executable they run, for nodes started later ({@link #startNode}).
     */
    public static ChaosCluster start(Toxiproxy toxiproxy, int n, Path server, IntFunction<RedisProcess> factory) {
        List<RedisProcess> started = new ArrayList<>();
        ChaosCluster c = null;
        try {
            for (int i = 0; i < n; i++) started.add(factory.apply(i));
            c = new ChaosCluster(toxiproxy, ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet(), started,
                    false, server);
            c.uris(ProxySet.MAIN);
            return c;
        } catch (RuntimeException e) {
            if (c != null) {
                c.close();
            } else {
                for (RedisProcess s : started) {
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

    /** A plain node (testkit) of the default server ({@link RedisBinary#path()}), without or with AOF. */
    public static RedisProcess plainNode(boolean aof) {
        return plainNode(RedisBinary.path(), aof);
    }

    /** A plain node (testkit) of {@code server}, without or with AOF {@code appendfsync always}. */
    public static RedisProcess plainNode(Path server, boolean aof) {
        return RedisNode.builder().binary(server).aof(aof).start();
    }

    /**
     * Starts one more node of this cluster's server, outside the cluster (no proxy; e.g. a replica); the caller
     * closes it.
     *
     * @throws UnsupportedOperationException on external nodes: the harness starts no server there
     */
    public RedisProcess startNode(boolean aof) {
        if (external) throw new UnsupportedOperationException("no server to start next to external nodes");
        return plainNode(server, aof);
    }

    /**
     * What {@code server} is, as the library's version check names it, and where it is:
     * {@code Redis 7.0.15 (tested) at /tmp/.../redis-server}. Starts one node for a moment to read its
     * {@code INFO server}; says so when it cannot.
     */
    public static String describe(Path server) {
        try (RedisNode n = RedisNode.builder().binary(server).start()) {
            Diagnostics.Server s = Diagnostics.server(Diagnostics.parseInfo(n.command("INFO", "server")));
            return (s == null ? "unknown server" : s.description() + (s.tested() ? " (tested)" : " (not tested)"))
                    + " at " + server;
        } catch (RuntimeException e) {
            return server + " (could not start it to read its version: " + e.getMessage() + ")";
        }
    }

    /** The executable the nodes run; null for external nodes. */
    public Path server() {
        return server;
    }

    public int size() {
        return nodes.size();
    }

    /**
     * Whether the nodes are external ({@link #attach}): no process control, no proxy sets but the main one.
     */
    public boolean external() {
        return external;
    }

    public Toxiproxy toxiproxy() {
        return toxiproxy;
    }

    /** The node process, for the nemesis and for inspection (direct, not proxied). */
    public RedisProcess node(int i) {
        return nodes.get(i);
    }

    public List<RedisProcess> nodes() {
        return nodes;
    }

    /** Proxy URIs of the main set, in node order: what clients get. */
    public List<String> uris() {
        return uris(ProxySet.MAIN);
    }

    /** The name every proxy URI of node {@code i} carries ({@code ?name=node<i>}), in every proxy set. */
    public static final String NODE_NAME = "node";

    /** Proxy URIs of a proxy set, creating the set's proxies on first use. */
    public synchronized List<String> uris(ProxySet set) {
        if (external) {
            if (!set.isMain()) {
                throw new UnsupportedOperationException("proxy set '" + set + "' cannot be created for external "
                        + "nodes: only their existing proxies are reachable by clients");
            }
            List<String> out = new ArrayList<>();
            for (RedisProcess n : nodes) out.add(((ExternalServer) n).uri());
            return out;
        }
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
        // every set names node i the same way: clients of different proxy sets are clients of one node list
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ps.size(); i++) out.add("redis://" + ps.get(i).getListen() + "?name=" + NODE_NAME + i);
        return out;
    }

    /** The proxy of node {@code i} in a set (created with the set). */
    public synchronized Proxy proxy(ProxySet set, int i) {
        if (!external) uris(set);
        else if (!set.isMain()) uris(set);   // throws: no other sets
        return proxies.get(set).get(i);
    }

    /** Every proxy set created so far. */
    public synchronized List<ProxySet> proxySets() {
        return List.copyOf(proxies.keySet());
    }

    /**
     * Re-enables every proxy of this cluster and removes every toxic from it (nothing else on the server); on an
     * external cluster's proxies, only the harness's toxics ({@value #TOXIC_PREFIX}...).
     */
    public synchronized void healProxies() {
        for (List<Proxy> ps : proxies.values()) {
            for (Proxy p : ps) {
                try {
                    for (Toxic t : p.toxics().getAll()) {
                        if (!external || t.getName().startsWith(TOXIC_PREFIX)) t.remove();
                    }
                    p.enable();
                } catch (IOException e) {
                    log.warn("could not heal proxy {}", p.getName(), e);
                }
            }
        }
    }

    /** Resumes paused nodes and restarts killed ones. */
    public void healNodes() {
        for (RedisProcess n : nodes) {
            if (n.isPaused()) n.resume();
            if (!n.isRunning()) n.restart();
        }
    }

    /**
     * Waits until node {@code i} answers PING through its proxy in {@code set}.
     *
     * @return whether it did within {@code timeout}
     */
    public boolean awaitReachable(ProxySet set, int i, Duration timeout) {
        String host;
        int port;
        if (external) {   // the proxy may listen on 0.0.0.0 inside a container: use the address clients use
            ExternalServer n = (ExternalServer) nodes.get(i);
            proxy(set, i);
            host = n.host();
            port = n.port();
        } else {
            String listen = proxy(set, i).getListen();
            int colon = listen.lastIndexOf(':');
            host = listen.substring(0, colon);
            port = Integer.parseInt(listen.substring(colon + 1));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            if (Resp.answersPing(host, port, 300)) return true;
            Sleep.millis(5);
        } while (System.nanoTime() < deadline);
        return false;
    }

    /**
     * Deletes this cluster's proxies and kills every node; every step is tried. Idempotent. An external cluster's
     * proxies are healed instead (left as found, minus the harness's toxics) and its nodes are left running.
     */
    @Override
    public synchronized void close() {
        RuntimeException first = null;
        if (external) {
            healProxies();
            proxies.clear();
            return;
        }
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
        for (RedisProcess n : nodes) {
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
