package dev.redlock.chaos.proxy;

import java.util.concurrent.TimeUnit;

/** {@code slow_close}: data passes untouched; the end of stream is held for {@code delay} milliseconds. */
final class SlowCloseStage extends Stage {

    private boolean eofHeld;
    private long eofAt;

    SlowCloseStage(Link link) {
        super(link);
    }

    @Override
    void onData(Chunk chunk) {
        next.onData(chunk);
    }

    @Override
    void onEof() {
        if (!active) {
            next.onEof();
            return;
        }
        eofHeld = true;
        eofAt = link.now();
        arm();
    }

    @Override
    void reconfigured(boolean first) {
        if (!eofHeld) {
            return;
        }
        if (active) {
            arm();
        } else {
            release();
        }
    }

    @Override
    void removed() {
        if (eofHeld) {
            release();
        }
    }

    private void arm() {
        long due = eofAt + TimeUnit.MILLISECONDS.toNanos(attr("delay"));
        schedule(due - link.now(), this::release);
    }

    private void release() {
        cancelTimer();
        eofHeld = false;
        next.onEof();
    }
}
