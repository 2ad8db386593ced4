package dev.redlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * W2's checks catch what they are there to catch: an in-memory "lock" that grants everyone at once must show
 * overlaps, and one that hands out a token twice must show token regressions (the twins of the zero counts the
 * bench reports for the real systems).
 */
class ThreadContendersTest {

    /** A lock that never refuses, holds for a moment and issues the tokens {@code tokens} gives. */
    private static Supplier<LockClient> grantsEveryone(LongSupplier tokens) {
        return () -> new LockClient() {
            @Override
            public Held acquire(String resource, long ttlMs, long waitMs) {
                return new Held(resource, tokens.getAsLong());
            }

            @Override
            public void release(Held held) {
                Thread.onSpinWait();
            }

            @Override
            public void close() {}
        };
    }

    @Test
    void aLockThatGrantsEveryoneShowsOverlaps() throws Exception {
        AtomicLong next = new AtomicLong();
        try (ThreadContenders c = new ThreadContenders(grantsEveryone(next::incrementAndGet), 4, "r", 1000)) {
            Contenders.Batch b = c.run(300);
            assertTrue(b.overlaps() > 0, "4 holders at once and no overlap counted: " + b);
        }
    }

    @Test
    void aRepeatedTokenIsARegression() throws Exception {
        try (ThreadContenders c = new ThreadContenders(grantsEveryone(() -> 7), 1, "r", 1000)) {
            Contenders.Batch b = c.run(50);
            assertTrue(b.perClient()[0] > 1, "needs at least two acquisitions: " + b);
            assertEquals(b.perClient()[0] - 1, b.tokenRegressions(), 1.0, "every token after the first repeats 7");
        }
    }
}
