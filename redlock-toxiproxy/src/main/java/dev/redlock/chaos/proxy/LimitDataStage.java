package dev.redlock.chaos.proxy;

/**
 * {@code limit_data}: forwards at most {@code bytes} bytes on this connection and direction, then ends the
 * stream (which closes the connection). The count survives updates of the toxic, as in the real server.
 */
final class LimitDataStage extends Stage {

    private long transmitted;
    private boolean ended;

    LimitDataStage(Link link) {
        super(link);
    }

    @Override
    void onData(Chunk chunk) {
        if (ended) {
            link.discard(chunk);
            return;
        }
        if (!active) {
            next.onData(chunk);
            return;
        }
        long remaining = attr("bytes") - transmitted;
        if (remaining <= 0) {
            link.discard(chunk);
            end();
            return;
        }
        if (chunk.size() > remaining) {
            link.discardTail(chunk, (int) (chunk.size() - remaining));
        }
        transmitted += chunk.size();
        next.onData(chunk);
        if (transmitted >= attr("bytes")) {
            end();
        }
    }

    @Override
    void onEof() {
        end();
    }

    @Override
    void reconfigured(boolean first) {
        // the count carries over; a lowered limit is enforced on the next chunk
    }

    @Override
    void removed() {
        // nothing held
    }

    private void end() {
        if (!ended) {
            ended = true;
            next.onEof();
        }
    }
}
