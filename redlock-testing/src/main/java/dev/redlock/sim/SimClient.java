package dev.redlock.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One client process on a {@link SimNetwork}: its transports (one per node, each a
 * {@link dev.redlock.spi.NodeTransport}) and its pause (a stop-the-world pause: while paused it sends nothing and
 * receives nothing; what it sent or was sent waits, in order, until {@link #resume()}). The pause is the network's
 * view only: code running on the simulation's thread on behalf of a paused client is the simulator's to hold back.
 * Not thread-safe: the simulation's thread only (its transports are, see {@link SimTransport}).
 */
public final class SimClient {
    private final String name;
    private final SimNetwork net;
    private final Map<SimNode, SimTransport> transports = new LinkedHashMap<>();
    private boolean paused;
    private Runnable onNextSend;

    SimClient(String name, SimNetwork net) {
        this.name = name;
        this.net = net;
    }

    public String name() {
        return name;
    }

    /** This client's transport to {@code node} (one per node, made on first use). */
    public SimTransport transport(SimNode node) {
        return transports.computeIfAbsent(node, n -> new SimTransport(this, n, net));
    }

    public boolean isPaused() {
        return paused;
    }

    public void pause() {
        paused = true;
        net.trace().record("client " + name + " paused");
    }

    public void resume() {
        if (!paused) return;
        paused = false;
        net.trace().record("client " + name + " resumed");
        net.clientResumed(this);
    }

    /**
     * Runs {@code action} once, right after this client's next request goes on the wire (to pause the client with a
     * call in flight, as a GC pause that begins mid-call does); replaces an action armed before, {@code null} disarms.
     */
    public void onNextSend(Runnable action) {
        onNextSend = action;
    }

    void sent() {
        Runnable a = onNextSend;
        if (a == null) return;
        onNextSend = null;
        a.run();
    }

    @Override
    public String toString() {
        return "SimClient[" + name + (paused ? ", paused" : "") + "]";
    }
}
