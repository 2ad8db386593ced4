package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.nemesis.FaultKind;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An injected fault. {@link #close()} heals it (once; later calls do nothing) and records its {@link FaultWindow};
 * use it in try-with-resources so healing happens in {@code finally}. Thread-safe.
 */
public final class FaultHandle implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FaultHandle.class);

    /** What healing does. */
    @FunctionalInterface
    interface Healer {
        void heal() throws Exception;
    }

    private final FaultRecorder owner;
    private final History history; // null: a skipped fault, no window
    private final FaultKind kind;
    private final String description;
    private final List<Integer> nodes;
    private final List<Integer> clients;
    private final boolean unavailable;
    private final long start;
    private final Healer healer;
    private boolean healed;

    FaultHandle(FaultRecorder owner, History history, FaultKind kind, String description, List<Integer> nodes,
                List<Integer> clients, boolean unavailable, long start, Healer healer) {
        this.owner = owner;
        this.history = history;
        this.kind = kind;
        this.description = description;
        this.nodes = List.copyOf(nodes);
        this.clients = List.copyOf(clients);
        this.unavailable = unavailable;
        this.start = start;
        this.healer = healer;
    }

    public FaultKind kind() {
        return kind;
    }

    public String description() {
        return description;
    }

    public List<Integer> nodes() {
        return nodes;
    }

    /** Heals the fault and records its window; idempotent. A failure to heal is rethrown after recording. */
    @Override
    public void close() {
        synchronized (this) {
            if (healed) return;
            healed = true;
        }
        RuntimeException failure = null;
        try {
            healer.heal();
        } catch (Exception e) {
            failure = e instanceof RuntimeException r ? r : new IllegalStateException("healing " + kind + " failed", e);
            log.warn("healing {} ({}) failed", kind, description, e);
        } finally {
            if (history != null) {
                history.fault(new FaultWindow(start, History.now(), kind, description, nodes, clients, unavailable));
            }
            owner.forget(this);
        }
        if (failure != null) throw failure;
    }

    @Override
    public String toString() {
        return kind + "[" + description + "]";
    }
}
