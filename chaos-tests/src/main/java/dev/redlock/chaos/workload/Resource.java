package dev.redlock.chaos.workload;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The protected resource: one operation reads and writes it twice, once through the {@link FencedStore} and once
 * through the {@link UnfencedStore}, so one run shows both outcomes. Writes travel over a "resource path" whose
 * latency the nemesis can raise per client (the write is issued, then lands that much later). Thread-safe.
 */
public final class Resource {
    private final UnfencedStore unfenced;
    private final FencedStore fenced;
    private final Map<Integer, Runnable> pathDelay = new ConcurrentHashMap<>();

    public Resource(History history) {
        this.unfenced = new UnfencedStore(history);
        this.fenced = new FencedStore(history);
    }

    public UnfencedStore unfenced() {
        return unfenced;
    }

    public FencedStore fenced() {
        return fenced;
    }

    /** Reads both counters. */
    public Reads read() {
        return new Reads(unfenced.read(), fenced.read(), History.now());
    }

    /** Delays every later write of {@code client} by {@code latency} in transit (zero removes it). */
    public void setPathLatency(int client, Duration latency) {
        if (latency.isZero()) pathDelay.remove(client);
        else pathDelay.put(client, () -> Sleep.of(latency));
    }

    /** Holds every later write of {@code client} in transit for as long as {@code delay} runs (null removes it). */
    public void setPathDelay(int client, Runnable delay) {
        if (delay == null) pathDelay.remove(client);
        else pathDelay.put(client, delay);
    }

    /** The write's outcome in both stores. */
    public record Outcome(Write unfenced, Write fenced) {
        public boolean fencedAccepted() {
            return fenced.accepted();
        }
    }

    /** Issues {@code read + 1} to both stores with {@code token}; lands after the client's path latency. */
    public Outcome write(int client, String owner, long token, Reads reads) {
        long invoked = History.now();
        Runnable d = pathDelay.get(client);
        if (d != null) d.run();
        Write u = unfenced.write(client, invoked, owner, token, reads.unfenced());
        Write f = fenced.write(client, invoked, owner, token, reads.fenced());
        return new Outcome(u, f);
    }

}
