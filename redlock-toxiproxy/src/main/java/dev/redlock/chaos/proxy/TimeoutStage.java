package dev.redlock.chaos.proxy;

import java.util.concurrent.TimeUnit;

/**
 * {@code timeout}: a black hole, not a delay. Every chunk in its direction is dropped. With {@code timeout > 0}
 * the stream is closed once that many milliseconds pass with no data arriving (each dropped chunk restarts the
 * clock); with 0 it never closes. Removing the toxic closes the stream too, as the real server does, so a
 * connection that has been black-holed is never silently resumed with bytes missing.
 */
final class TimeoutStage extends Stage {

    private boolean ended;

    TimeoutStage(Link link) {
        super(link);
    }

    @Override
    void onData(Chunk chunk) {
        if (ended) {
            link.discard(chunk);
        } else if (!active) {
            next.onData(chunk);
        } else {
            link.discard(chunk);
            arm();
        }
    }

    @Override
    void onEof() {
        end();
    }

    @Override
    void reconfigured(boolean first) {
        if (ended) {
            return;
        }
        if (active) {
            arm();
        } else {
            cancelTimer();
        }
    }

    @Override
    void removed() {
        cancelTimer();
        if (active) {
            end();
        }
    }

    private void arm() {
        long timeout = attr("timeout");
        if (timeout > 0) {
            schedule(TimeUnit.MILLISECONDS.toNanos(timeout), this::end);
        } else {
            cancelTimer();
        }
    }

    private void end() {
        cancelTimer();
        if (!ended) {
            ended = true;
            next.onEof();
        }
    }
}
