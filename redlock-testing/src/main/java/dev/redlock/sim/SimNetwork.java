package dev.redlock.sim;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The simulated network between clients and {@link SimNode}s, on a {@link SimScheduler}: connections with
 * per-connection order and a per-message delay drawn from each link's {@link LinkDelay} (seeded), partitions (both
 * ways or one way), connection resets (outstanding requests fail; one in flight may or may not have run: a seeded
 * coin decides, the {@link SimTrace} records which), node kills (every connection to the node drops at once), node
 * pauses (requests queue at the node, and run in arrival order when it resumes) and client pauses (its sends and
 * its deliveries wait). A reply completes its future on the simulation's thread at its delivery time.
 *
 * <p>Not modelled: bandwidth, packet loss inside a connection (TCP retransmits; a partition holds, it does not
 * lose), connect latency beyond one delay, the client library's own timeouts (the library times calls out itself).
 * Not thread-safe: the simulation's thread only.
 */
public final class SimNetwork {
    /** The settings of one client-node pair, both directions. */
    static final class Link {
        LinkDelay delay;
        boolean cutToNode;
        boolean cutToClient;

        Link(LinkDelay delay) {
            this.delay = delay;
        }
    }

    private final SimScheduler time;
    private final SimTrace trace;
    private final Map<String, SimNode> nodes = new LinkedHashMap<>();
    private final Map<String, SimNode> byAddress = new HashMap<>();
    private final Map<String, SimClient> clients = new LinkedHashMap<>();
    private final Map<String, Link> links = new HashMap<>();
    private final List<SimConnection> open = new ArrayList<>();
    private final Map<SimNode, ArrayDeque<Runnable>> queuedAtPausedNode = new HashMap<>();
    private LinkDelay defaultDelay = LinkDelay.fixed(Duration.ofNanos(100_000));
    private long connections;

    /** A network on {@code time} recording into {@code trace}. */
    public SimNetwork(SimScheduler time, SimTrace trace) {
        this.time = Objects.requireNonNull(time, "time");
        this.trace = Objects.requireNonNull(trace, "trace");
    }

    /** A network that records no trace. */
    public SimNetwork(SimScheduler time) {
        this(time, SimTrace.off(time));
    }

    public SimScheduler time() {
        return time;
    }

    public SimTrace trace() {
        return trace;
    }

    /** Puts a node on the network (reachable by clients; {@code REPLICAOF host port} finds it by name:port). */
    public SimNode attach(SimNode node) {
        if (nodes.putIfAbsent(node.name(), node) != null) throw new IllegalArgumentException("a node named " + node.name() + " is already attached");
        byAddress.put(node.host() + ":" + node.port(), node);
        node.resolver(byAddress::get);
        node.addListener(this::nodeChanged);
        return node;
    }

    /** The client named {@code name}, created on first use. */
    public SimClient client(String name) {
        return clients.computeIfAbsent(name, n -> new SimClient(n, this));
    }

    /** The delay of every link not given its own (default: a fixed 100 us each way). */
    public void defaultDelay(LinkDelay d) {
        defaultDelay = Objects.requireNonNull(d, "delay");
        for (Link l : links.values()) if (l.delay == null) l.delay = d;
    }

    /** The delay of the link between {@code client} and {@code node}, both directions. */
    public void delay(SimClient client, SimNode node, LinkDelay d) {
        link(client, node).delay = Objects.requireNonNull(d, "delay");
    }

    /** Cuts both directions between {@code client} and {@code node}. */
    public void partition(SimClient client, SimNode node) {
        cut(client, node, true, true);
    }

    /** Cuts one or both directions (a one-way partition: requests arrive but replies do not, or the reverse). */
    public void cut(SimClient client, SimNode node, boolean toNode, boolean toClient) {
        Link l = link(client, node);
        l.cutToNode |= toNode;
        l.cutToClient |= toClient;
        trace.record("cut " + client.name() + "/" + node.name() + (toNode ? " >" : "") + (toClient ? " <" : ""));
    }

    /** Cuts every client from {@code node}. */
    public void isolate(SimNode node) {
        for (SimClient c : clients.values()) partition(c, node);
    }

    /** Heals both directions between {@code client} and {@code node}: what was held is sent, in order. */
    public void heal(SimClient client, SimNode node) {
        Link l = link(client, node);
        l.cutToNode = false;
        l.cutToClient = false;
        trace.record("heal " + client.name() + "/" + node.name());
        for (SimConnection c : List.copyOf(open)) if (c.client() == client && c.node() == node) c.release();
    }

    /** Heals every link. */
    public void healAll() {
        for (Link l : links.values()) {
            l.cutToNode = false;
            l.cutToClient = false;
        }
        trace.record("heal all");
        for (SimConnection c : List.copyOf(open)) c.release();
    }

    /** Resets every open connection between {@code client} and {@code node} (see {@link SimConnection#reset()}). */
    public void reset(SimClient client, SimNode node) {
        for (SimConnection c : List.copyOf(open)) if (c.client() == client && c.node() == node) c.reset();
    }

    /** The open connections (a copy). */
    public List<SimConnection> connections() {
        return List.copyOf(open);
    }

    // ---- for connections, clients and transports ----

    Link link(SimClient client, SimNode node) {
        return links.computeIfAbsent(client.name() + "\u0000" + node.name(), k -> new Link(defaultDelay));
    }

    SimConnection connect(SimClient client, SimNode node, SimTransport owner) {
        if (nodes.get(node.name()) != node) throw new IllegalArgumentException(node + " is not attached to this network");
        SimConnection c = new SimConnection(++connections, client, node, this, link(client, node), owner);
        open.add(c);
        trace(c, "open");
        return c;
    }

    void closed(SimConnection c) {
        open.remove(c);
    }

    void queueAtPausedNode(SimNode node, Runnable arrival) {
        queuedAtPausedNode.computeIfAbsent(node, n -> new ArrayDeque<>()).add(arrival);
    }

    void clientResumed(SimClient client) {
        for (SimConnection c : List.copyOf(open)) if (c.client() == client) c.release();
    }

    private void nodeChanged(SimNode node) {
        trace.record("node " + node.name() + (node.isRunning() ? (node.isPaused() ? " paused" : " running " + node.runId()) : " down"));
        if (!node.isRunning()) {
            queuedAtPausedNode.remove(node);
            for (SimConnection c : List.copyOf(open)) if (c.node() == node) c.close(node.name() + " went down", true);
        } else if (!node.isPaused()) {
            ArrayDeque<Runnable> q = queuedAtPausedNode.remove(node);
            if (q != null) for (Runnable r : q) r.run();
        }
    }

    boolean tracing() {
        return trace.enabled();
    }

    void trace(SimConnection c, String event) {
        if (trace.enabled()) trace.record(c + " " + event);
    }
}
