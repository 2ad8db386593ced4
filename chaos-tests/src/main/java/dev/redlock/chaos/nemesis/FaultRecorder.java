package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.history.History;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bookkeeping every {@link FaultFamily} shares: the faults still open (so {@link #healAll()} can heal them), the
 * kinds left out ({@code -Dchaos.nemesis.skip}) and the notes in the history. Thread-safe.
 */
final class FaultRecorder {
    private static final Logger log = LoggerFactory.getLogger(FaultRecorder.class);

    private final History history;
    private final Set<FaultKind> skip;
    private final Set<FaultHandle> open = new LinkedHashSet<>();

    FaultRecorder(History history, Set<FaultKind> skip) {
        this.history = history;
        this.skip = skip;
    }

    History history() {
        return history;
    }

    Set<FaultKind> skipped() {
        return skip;
    }

    /**
     * The kinds named in a {@link Nemesis#SKIP_PROPERTY} value (labels, comma-separated, blanks ignored).
     *
     * @throws IllegalArgumentException naming the property and the known kinds, for an unknown label
     */
    static Set<FaultKind> parseSkip(String value) {
        Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        for (String label : value.split(",")) {
            if (label.isBlank()) continue;
            try {
                kinds.add(FaultKind.ofLabel(label.trim()));
            } catch (NoSuchElementException e) {
                throw new IllegalArgumentException(Nemesis.SKIP_PROPERTY + ": " + e.getMessage(), e);
            }
        }
        return Collections.unmodifiableSet(kinds);
    }

    /** Whether {@code kind} is left out; if so the history notes it. */
    boolean skipping(FaultKind kind, String what) {
        if (!skip.contains(kind)) return false;
        history.note("fault SKIPPED (" + Nemesis.SKIP_PROPERTY + "): " + kind + " " + what);
        return true;
    }

    /** The handle of a skipped fault: healing does nothing and records no window. */
    FaultHandle noop(FaultKind kind, String what) {
        return new FaultHandle(this, null, kind, "skipped: " + what, List.of(), List.of(), false, History.now(), () -> { });
    }

    FaultHandle open(FaultKind kind, String description, int[] nodes, List<Integer> clients, boolean unavailable,
                     long start, FaultHandle.Healer healer) {
        FaultHandle h = new FaultHandle(this, history, kind, description, Arrays.stream(nodes).boxed().toList(),
                clients, unavailable, start, healer);
        synchronized (open) {
            open.add(h);
        }
        history.note("fault: " + kind + " " + description);
        return h;
    }

    void forget(FaultHandle h) {
        synchronized (open) {
            open.remove(h);
        }
    }

    /** The faults not healed yet, oldest first. */
    List<FaultHandle> open() {
        synchronized (open) {
            return new ArrayList<>(open);
        }
    }

    /** Heals every fault still open (newest first); every heal is attempted. */
    void healAll() {
        List<FaultHandle> copy = open();
        Collections.reverse(copy);
        for (FaultHandle h : copy) {
            try {
                h.close();
            } catch (RuntimeException e) {
                log.warn("heal of {} failed", h, e);
            }
        }
    }
}
