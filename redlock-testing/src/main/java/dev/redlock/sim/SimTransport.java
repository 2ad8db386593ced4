package dev.redlock.sim;

import dev.redlock.spi.NodeTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A client's {@link NodeTransport} to one {@link SimNode} over the {@link SimNetwork}: a command connection and a
 * subscriber connection, as the library's own transport has. A closed connection is replaced by a new one at the
 * next command; the subscriber connection is replaced at once, and its channels subscribed again, retrying every
 * {@link #RESUBSCRIBE_DELAY} while the node is unreachable (background work: it does not keep
 * {@link SimScheduler#runUntilIdle()} running). Never retries a command and never times one out (the
 * library does both); replies complete the futures on the simulation's thread.
 *
 * <p>Thread-safe as {@link NodeTransport} requires: a call from a thread other than the one that runs the loop is
 * handed to the loop ({@link SimScheduler#execute}) and takes effect when the loop next runs, so a library running
 * its own threads can use it while another thread drives the simulation. Only calls made on the loop's thread are
 * deterministic.
 */
public final class SimTransport implements NodeTransport {
    /** How long the transport waits before subscribing again after its subscriber connection dropped. */
    public static final Duration RESUBSCRIBE_DELAY = Duration.ofMillis(100);

    private final SimClient client;
    private final SimNode node;
    private final SimNetwork net;
    private final Map<String, List<Consumer<String>>> listeners = new LinkedHashMap<>();
    private final Map<String, CompletableFuture<Void>> subscribing = new LinkedHashMap<>();
    private SimConnection commands;
    private SimConnection subscriber;
    private boolean resubscribeScheduled;
    private boolean closed;

    SimTransport(SimClient client, SimNode node, SimNetwork net) {
        this.client = client;
        this.node = node;
        this.net = net;
    }

    public SimNode node() {
        return node;
    }

    public SimClient client() {
        return client;
    }

    @Override
    public CompletableFuture<Object> command(String... args) {
        if (!net.time().isOwnerThread()) return onLoop(() -> command(args));
        if (closed) return CompletableFuture.failedFuture(new IllegalStateException("transport closed"));
        if (commands == null || !commands.isOpen()) commands = net.connect(client, node, this);
        return commands.send(Replies.args(args));
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel, Consumer<String> listener) {
        if (!net.time().isOwnerThread()) return onLoop(() -> subscribe(channel, listener));
        if (closed) return CompletableFuture.failedFuture(new IllegalStateException("transport closed"));
        List<Consumer<String>> l = listeners.computeIfAbsent(channel, c -> new ArrayList<>());
        l.add(listener);
        CompletableFuture<Void> pending = subscribing.get(channel);
        if (pending != null) return pending;
        if (l.size() > 1) return CompletableFuture.completedFuture(null);
        CompletableFuture<Void> done = new CompletableFuture<>();
        subscribing.put(channel, done);
        subscriberConnection().send(Replies.args("SUBSCRIBE", channel)).whenComplete((r, e) -> {
            subscribing.remove(channel);
            if (e == null) {
                done.complete(null);
            } else {
                listeners.remove(channel);
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    @Override
    public void unsubscribe(String channel, Consumer<String> listener) {
        if (!net.time().isOwnerThread()) {
            net.time().execute(() -> unsubscribe(channel, listener));
            return;
        }
        List<Consumer<String>> l = listeners.get(channel);
        if (l == null || !l.remove(listener) || !l.isEmpty()) return;
        listeners.remove(channel);
        if (subscriber != null && subscriber.isOpen()) subscriber.send(Replies.args("UNSUBSCRIBE", channel));
    }

    /** Closes both connections: outstanding requests fail, as at a reset. */
    @Override
    public void close() {
        if (!net.time().isOwnerThread()) {
            net.time().execute(this::close);
            return;
        }
        if (closed) return;
        closed = true;
        if (commands != null) commands.close("transport closed", false);
        if (subscriber != null) subscriber.close("transport closed", false);
        listeners.clear();
    }

    /** Runs {@code call} on the loop; the returned future completes as the call's does. */
    private <T> CompletableFuture<T> onLoop(java.util.function.Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> out = new CompletableFuture<>();
        try {
            net.time().execute(() -> call.get().whenComplete((r, e) -> {
                if (e != null) out.completeExceptionally(e);
                else out.complete(r);
            }));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            out.completeExceptionally(e);
        }
        return out;
    }

    private SimConnection subscriberConnection() {
        if (subscriber == null || !subscriber.isOpen()) subscriber = net.connect(client, node, this);
        return subscriber;
    }

    void push(String channel, String message) {
        List<Consumer<String>> l = listeners.get(channel);
        if (l == null) return;
        for (Consumer<String> c : List.copyOf(l)) c.accept(message);
    }

    void connectionClosed(SimConnection c) {
        if (c != subscriber || closed || listeners.isEmpty() || resubscribeScheduled) return;
        resubscribeScheduled = true;
        net.time().background(RESUBSCRIBE_DELAY, this::resubscribe);
    }

    private void resubscribe() {
        resubscribeScheduled = false;
        if (closed || listeners.isEmpty()) return;
        for (String channel : List.copyOf(listeners.keySet())) subscriberConnection().send(Replies.args("SUBSCRIBE", channel));
    }

    @Override
    public String toString() {
        return "SimTransport[" + client.name() + " -> " + node.name() + "]";
    }
}
