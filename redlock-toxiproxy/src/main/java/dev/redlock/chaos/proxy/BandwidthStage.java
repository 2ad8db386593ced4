package dev.redlock.chaos.proxy;

/**
 * {@code bandwidth}: passes at most {@code rate} KB/s (1 KB = 1000 bytes), sending large chunks in slices of
 * 100 ms worth of bytes. {@code rate = 0} holds all data (and the end of stream) until the rate is raised or the
 * toxic removed; the connection stays open meanwhile.
 */
final class BandwidthStage extends QueueingStage {

    /** When the previous slice has "finished transmitting" at the configured rate. */
    private long busyUntil;

    BandwidthStage(Link link) {
        super(link);
    }

    @Override
    void reconfigured(boolean first) {
        busyUntil = Math.max(busyUntil, link.now()); // a stalled queue restarts from now, not from its arrival
        super.reconfigured(first);
    }

    @Override
    long releaseHead(Held head, long now) {
        long rate = attr("rate"); // bytes per millisecond
        if (rate <= 0) {
            return NEVER;
        }
        int size = head.chunk.size();
        int slice = rate >= Integer.MAX_VALUE / 100 ? size : (int) Math.min(size, rate * 100);
        long due = Math.max(busyUntil, head.arrival) + slice * 1_000_000L / rate;
        if (due - now > 0) {
            return due - now;
        }
        busyUntil = due;
        if (slice == size) {
            queue.poll();
            next.onData(head.chunk);
        } else {
            next.onData(head.chunk.take(slice));
        }
        return 0;
    }
}
