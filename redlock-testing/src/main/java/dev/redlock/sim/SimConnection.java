package dev.redlock.sim;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.luaj.vm2.LuaString;

/**
 * One simulated TCP connection from a client to a node: requests reach the node in the order sent, replies and
 * published messages reach the client in the order sent, each after its link's delay. A cut direction (partition)
 * holds what is sent from then on and releases it, in order, when healed; messages already in flight still arrive.
 * A paused client sends nothing until it resumes; replies to it still travel and wait, in order, in its socket
 * buffer, and it reads them when it resumes. A {@link #reset()} fails every outstanding request at once with a
 * {@link SimConnectionException}; a request that was in flight and not yet run may still run on the node (a seeded
 * coin decides, and the trace records which), its reply lost. Not thread-safe: the simulation's thread only.
 */
public final class SimConnection {
    /** One command on this connection. */
    static final class Request {
        final long id;
        final LuaString[] args;
        final CompletableFuture<Object> future = new CompletableFuture<>();
        boolean onWire;
        boolean executed;
        boolean cancelled;

        Request(long id, LuaString[] args) {
            this.id = id;
            this.args = args;
        }
    }

    private final long id;
    private final SimClient client;
    private final SimNode node;
    private final SimNetwork net;
    private final SimNetwork.Link link;
    private final SimTransport owner;
    private final NetSession session = new NetSession();
    private final ArrayDeque<Request> outstanding = new ArrayDeque<>();
    private final ArrayDeque<Request> heldToNode = new ArrayDeque<>();
    private final ArrayDeque<Runnable> heldToClient = new ArrayDeque<>();
    private final ArrayDeque<Runnable> arrivedWhilePaused = new ArrayDeque<>();
    private long lastDueToNode;
    private long lastDueToClient;
    private long requests;
    private boolean closed;

    SimConnection(long id, SimClient client, SimNode node, SimNetwork net, SimNetwork.Link link, SimTransport owner) {
        this.id = id;
        this.client = client;
        this.node = node;
        this.net = net;
        this.link = link;
        this.owner = owner;
    }

    public SimClient client() {
        return client;
    }

    public SimNode node() {
        return node;
    }

    public boolean isOpen() {
        return !closed;
    }

    /** Resets the connection now (as a RST would): see the class comment. */
    public void reset() {
        close("connection reset", false);
    }

    @Override
    public String toString() {
        return client.name() + ">" + node.name() + "#" + id;
    }

    // ---- client side ----

    CompletableFuture<Object> send(LuaString[] args) {
        Request r = new Request(++requests, args);
        if (closed) {
            r.future.completeExceptionally(new SimConnectionException(this + " is closed"));
            return r.future;
        }
        outstanding.add(r);
        if (net.tracing()) net.trace(this, "send #" + r.id + " " + Describe.command(args));
        toNode(r);
        return r.future;
    }

    private void toNode(Request r) {
        if (link.cutToNode || client.isPaused() || !heldToNode.isEmpty()) {
            heldToNode.add(r);
            return;
        }
        r.onWire = true;
        long due = Math.max(SimScheduler.saturatedAdd(net.time().nanoTime(), link.delay.sampleNanos(net.time().random())), lastDueToNode);
        lastDueToNode = due;
        net.time().at(due, () -> arrive(r));
        client.sent();
    }

    private void arrive(Request r) {
        if (r.cancelled) return;
        if (!node.isRunning()) {
            refuse(r);
            return;
        }
        if (node.isPaused()) {
            net.queueAtPausedNode(node, () -> arrive(r));
            return;
        }
        r.executed = true;
        Object reply = node.execute(session, r.args);
        if (net.tracing()) net.trace(this, "run #" + r.id + (closed ? " (connection closed, reply lost)" : "") + " -> " + Describe.reply(reply));
        if (closed) {
            dropSubscriptions();
            return;
        }
        toClient(() -> complete(r, reply));
    }

    /** The node was down when the request got there: connection refused. */
    private void refuse(Request r) {
        net.trace(this, "refused #" + r.id + " (node down)");
        close("connection refused: " + node.name() + " is down", true);
    }

    private void complete(Request r, Object reply) {
        outstanding.remove(r);
        if (net.tracing()) net.trace(this, "reply #" + r.id);
        if (reply instanceof ErrorReply e) r.future.completeExceptionally(new SimRedisException(e.text()));
        else r.future.complete(Replies.toTransport(reply));
    }

    // ---- node side ----

    private void toClient(Runnable delivery) {
        if (closed) return;
        // a paused client's replies still travel: they wait in its socket buffer (arrivedWhilePaused) until it runs
        if (link.cutToClient || !heldToClient.isEmpty()) {
            heldToClient.add(delivery);
            return;
        }
        long due = Math.max(SimScheduler.saturatedAdd(net.time().nanoTime(), link.delay.sampleNanos(net.time().random())), lastDueToClient);
        lastDueToClient = due;
        net.time().at(due, () -> {
            if (closed) return;
            if (client.isPaused()) arrivedWhilePaused.add(delivery);
            else delivery.run();
        });
    }

    /** A message published on a channel this connection subscribed to. */
    private final class NetSession extends Session {
        @Override
        void deliver(String channel, String message) {
            if (closed) return;
            net.trace(SimConnection.this, "push " + channel + " " + message);
            toClient(() -> owner.push(channel, message));
        }
    }

    /** Sends or delivers what was held, now that a direction is open again (heal, client resume). */
    void release() {
        if (closed) return;
        if (!client.isPaused()) {
            while (!arrivedWhilePaused.isEmpty() && !closed) arrivedWhilePaused.poll().run();
        }
        if (!link.cutToNode && !client.isPaused()) {
            ArrayDeque<Request> held = new ArrayDeque<>(heldToNode);
            heldToNode.clear();
            for (Request r : held) toNode(r);
        }
        if (!link.cutToClient) {
            ArrayDeque<Runnable> held = new ArrayDeque<>(heldToClient);
            heldToClient.clear();
            for (Runnable d : held) toClient(d);
        }
    }

    /**
     * Closes the connection: every outstanding request fails. One that was sent and had not run yet runs anyway
     * when {@code nodeGone} is false and the coin says so (it was in the node's socket buffer).
     */
    void close(String why, boolean nodeGone) {
        if (closed) return;
        closed = true;
        net.trace(this, "close: " + why);
        for (Request r : outstanding) {
            if (!r.executed) {
                boolean runsAnyway = !nodeGone && r.onWire && net.time().random().nextBoolean();
                r.cancelled = !runsAnyway;
                net.trace(this, "#" + r.id + (runsAnyway ? " in flight: will run (reply lost)" : " not run"));
            } else {
                net.trace(this, "#" + r.id + " ran, reply lost");
            }
            r.future.completeExceptionally(new SimConnectionException(why + " (" + this + ")"));
        }
        outstanding.clear();
        heldToNode.clear();
        heldToClient.clear();
        arrivedWhilePaused.clear();
        dropSubscriptions();
        net.closed(this);
        owner.connectionClosed(this);
    }

    private void dropSubscriptions() {
        for (String c : List.copyOf(session.channels)) node.channels().unsubscribe(session, c);
    }
}
