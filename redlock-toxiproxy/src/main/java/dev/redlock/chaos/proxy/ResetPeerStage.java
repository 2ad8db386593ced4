package dev.redlock.chaos.proxy;

import java.util.concurrent.TimeUnit;

/**
 * {@code reset_peer}: on the first data or end of stream in its direction, waits {@code timeout} milliseconds
 * (dropping data meanwhile) and then resets the whole connection: both sockets are closed with SO_LINGER 0, so
 * both peers get a TCP RST instead of a FIN.
 */
final class ResetPeerStage extends Stage {

    private boolean triggered;
    private boolean eofSeen;
    private long triggeredAt;

    ResetPeerStage(Link link) {
        super(link);
    }

    @Override
    void onData(Chunk chunk) {
        if (!active) {
            next.onData(chunk);
            return;
        }
        link.discard(chunk);
        trigger();
    }

    @Override
    void onEof() {
        if (!active) {
            next.onEof();
            return;
        }
        eofSeen = true;
        trigger();
    }

    @Override
    void reconfigured(boolean first) {
        if (!triggered) {
            return;
        }
        if (active) {
            arm();
        } else {
            standDown();
        }
    }

    @Override
    void removed() {
        standDown();
    }

    private void trigger() {
        if (!triggered) {
            triggered = true;
            triggeredAt = link.now();
            arm();
        }
    }

    private void arm() {
        long due = triggeredAt + TimeUnit.MILLISECONDS.toNanos(attr("timeout"));
        schedule(due - link.now(), () -> link.connection().reset());
    }

    private void standDown() {
        cancelTimer();
        triggered = false;
        if (eofSeen) {
            eofSeen = false;
            next.onEof();
        }
    }
}
