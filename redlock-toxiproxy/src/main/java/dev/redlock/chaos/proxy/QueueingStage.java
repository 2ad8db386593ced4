package dev.redlock.chaos.proxy;

import java.util.ArrayDeque;

/**
 * A stage that holds chunks in arrival order and releases the head when the subclass says it is due; used by the
 * toxics that delay or pace data (latency, bandwidth, slicer). The end of stream waits behind held data. When the
 * stage is removed, or its toxicity roll fails, everything held is released at once, in order.
 */
abstract class QueueingStage extends Stage {

    /** Returned by {@link #releaseHead} when the head may not go until the configuration changes. */
    static final long NEVER = Long.MAX_VALUE;

    final ArrayDeque<Held> queue = new ArrayDeque<>();
    private boolean eofHeld;
    private boolean pumping;

    /** A held chunk and the time it entered this stage, plus one value the subclass may keep with it. */
    static final class Held {
        final Chunk chunk;
        final long arrival;
        final long tag;

        Held(Chunk chunk, long arrival, long tag) {
            this.chunk = chunk;
            this.arrival = arrival;
            this.tag = tag;
        }
    }

    QueueingStage(Link link) {
        super(link);
    }

    /**
     * Releases (part of) the head to {@link #next} if it is due, removing it from the queue once fully released.
     *
     * @return 0 if something was released, else nanoseconds until the head is due, or {@link #NEVER}
     */
    abstract long releaseHead(Held head, long now);

    /** A value to keep with a newly held chunk (e.g. its jitter). */
    long tagFor(Chunk chunk) {
        return 0;
    }

    @Override
    final void onData(Chunk chunk) {
        if (!active && queue.isEmpty()) {
            next.onData(chunk);
            return;
        }
        queue.add(new Held(chunk, link.now(), active ? tagFor(chunk) : 0));
        if (queue.size() == 1 && !timerPending()) {
            pump();
        }
    }

    @Override
    final void onEof() {
        if (queue.isEmpty()) {
            next.onEof();
        } else {
            eofHeld = true;
        }
    }

    @Override
    void reconfigured(boolean first) {
        cancelTimer();
        pump();
    }

    @Override
    final void removed() {
        active = false;
        cancelTimer();
        pump();
    }

    @Override
    void dispose() {
        super.dispose();
        Held held;
        while ((held = queue.poll()) != null) {
            held.chunk.data.release();
        }
    }

    /** Releases everything that is due, then arms the timer for the next head. */
    final void pump() {
        if (pumping) {
            return; // re-entered through next.onData(...) -> ... -> back here; the outer loop carries on
        }
        pumping = true;
        try {
            while (!queue.isEmpty()) {
                if (link.closed()) {
                    return;
                }
                if (!active) {
                    next.onData(queue.poll().chunk);
                    continue;
                }
                long wait = releaseHead(queue.peek(), link.now());
                if (wait > 0) {
                    if (wait != NEVER) {
                        schedule(wait, this::pump);
                    }
                    return;
                }
            }
            if (eofHeld) {
                eofHeld = false;
                next.onEof();
            }
        } finally {
            pumping = false;
        }
    }
}
