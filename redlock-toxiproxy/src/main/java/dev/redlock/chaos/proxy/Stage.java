package dev.redlock.chaos.proxy;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One toxic running on one link of one connection. Stages form a chain ending in an {@link OutputStage}; each
 * passes data and the end of stream ("EOF") to {@link #next}. Every method runs on the connection's event loop, so
 * stages need no locks; time-based stages use that loop's timers.
 *
 * <p>The toxicity is rolled when the stage is configured (connection opens, toxic added or updated); a stage whose
 * roll failed is a pass-through.
 */
abstract class Stage {

    final Link link;
    Stage next;
    ToxicSpec spec;
    boolean active;
    private ScheduledFuture<?> timer;

    Stage(Link link) {
        this.link = link;
    }

    /** Sets the configuration (first time or update) and rolls the toxicity again. */
    final void configure(ToxicSpec newSpec) {
        boolean first = spec == null;
        spec = newSpec;
        float toxicity = newSpec.toxicity();
        active = toxicity >= 1.0f || link.random().nextFloat() < toxicity;
        reconfigured(first);
    }

    /** Called after {@link #configure}; {@code first} on the stage's creation. */
    abstract void reconfigured(boolean first);

    abstract void onData(Chunk chunk);

    abstract void onEof();

    /** The toxic was removed: hand on whatever is held, at once, and stop timers. */
    abstract void removed();

    /** The connection is gone: release held buffers. Timers are cancelled here. */
    void dispose() {
        cancelTimer();
    }

    long attr(String name) {
        return spec.attribute(name);
    }

    /** Runs {@code task} on the loop after {@code nanos}, replacing any pending timer of this stage. */
    final void schedule(long nanos, Runnable task) {
        cancelTimer();
        timer = link.loop().schedule(() -> {
            timer = null;
            if (!link.closed()) {
                task.run();
            }
        }, Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    final boolean timerPending() {
        return timer != null;
    }

    final void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
