package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.workload.Resource;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Client-side faults: a client thread that stops (a GC pause) and a client's writes held in transit on their way to
 * the protected resource. No node is touched. Thread-safe.
 */
public final class ClientFaults implements FaultFamily {
    private final FaultRecorder recorder;
    private final Resource resource;

    ClientFaults(FaultRecorder recorder, Resource resource) {
        this.recorder = recorder;
        this.resource = resource;
    }

    @Override
    public FaultKind.Family family() {
        return FaultKind.Family.CLIENT;
    }

    /** The calling client thread stops for {@code d} (a GC pause); recorded as a client-stall window. */
    public void stallClient(int client, Duration d) {
        if (recorder.skipping(FaultKind.CLIENT_STALL, "client " + client)) return;
        long start = History.now();
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            recorder.history().fault(new FaultWindow(start, History.now(), FaultKind.CLIENT_STALL, "client " + client
                    + " paused " + d.toMillis() + "ms", List.of(), List.of(client), false));
        }
    }

    /**
     * Like {@link #stallClient(int, Duration)}, but the pause lasts at least {@code min} and then until {@code until}
     * holds (at most {@code max}): forces "the pause ends after X happened".
     */
    public void stallClient(int client, Duration min, BooleanSupplier until, Duration max) {
        if (recorder.skipping(FaultKind.CLIENT_STALL, "client " + client)) return;
        long start = History.now();
        try {
            holdFor(start, min, until, max);
        } finally {
            recorder.history().fault(new FaultWindow(start, History.now(), FaultKind.CLIENT_STALL, "client " + client
                    + " paused " + (History.now() - start) / 1_000_000 + "ms (at least " + min.toMillis() + "ms)",
                    List.of(), List.of(client), false));
        }
    }

    /** Every write {@code client} issues lands {@code d} later (latency on its path to the resource). */
    public FaultHandle resourceLatency(int client, Duration d) {
        if (recorder.skipping(FaultKind.RESOURCE_LATENCY, "client " + client)) {
            return recorder.noop(FaultKind.RESOURCE_LATENCY, "client " + client);
        }
        long start = History.now();
        resource.setPathLatency(client, d);
        return recorder.open(FaultKind.RESOURCE_LATENCY, "client " + client + " writes delayed " + d.toMillis()
                + "ms in transit", new int[0], List.of(client), false, start,
                () -> resource.setPathLatency(client, Duration.ZERO));
    }

    /**
     * Every write {@code client} issues is held in transit at least {@code min}, then until {@code until} holds (at
     * most {@code max}) before it lands.
     */
    public FaultHandle resourceLatency(int client, Duration min, BooleanSupplier until, Duration max) {
        if (recorder.skipping(FaultKind.RESOURCE_LATENCY, "client " + client)) {
            return recorder.noop(FaultKind.RESOURCE_LATENCY, "client " + client);
        }
        long start = History.now();
        resource.setPathDelay(client, () -> holdFor(History.now(), min, until, max));
        return recorder.open(FaultKind.RESOURCE_LATENCY, "client " + client + " writes held in transit >= "
                + min.toMillis() + "ms", new int[0], List.of(client), false, start, () -> resource.setPathDelay(client, null));
    }

    static void holdFor(long start, Duration min, BooleanSupplier until, Duration max) {
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
}
