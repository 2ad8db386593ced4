package dev.redlock;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The highest fence value this instance has seen per resource, as a guess for the next token: bounded (a fixed
 * table indexed by the resource's hash; a collision only loses a guess), lock-free, never a source of truth.
 * A wrong or missing guess costs the second round trip, never safety (see {@link AcquireRound}).
 */
final class TokenHints {
    private static final int SLOTS = 4096;   // power of two

    private record Hint(String resource, long fence) {}

    private final AtomicReferenceArray<Hint> table = new AtomicReferenceArray<>(SLOTS);

    /** The highest fence seen for {@code resource}, or -1. */
    long get(String resource) {
        Hint h = table.get(slot(resource));
        return h != null && h.resource.equals(resource) ? h.fence : -1;
    }

    /** Records a fence value seen for {@code resource} (keeps the higher one for the same resource). */
    void saw(String resource, long fence) {
        int i = slot(resource);
        while (true) {
            Hint h = table.get(i);
            if (h != null && h.resource.equals(resource) && h.fence >= fence) return;
            if (table.compareAndSet(i, h, new Hint(resource, fence))) return;
        }
    }

    private static int slot(String resource) {
        int h = resource.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
