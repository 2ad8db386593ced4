package dev.redlock.chaos.proxy;

import java.util.concurrent.TimeUnit;

/**
 * {@code latency}: each chunk is released at its read time + {@code latency} + a jitter drawn uniformly from
 * [-{@code jitter}, +{@code jitter}) milliseconds. Order is kept (a chunk never overtakes the one before it), and
 * delays do not add up: a chunk that waited behind its predecessor is not delayed again.
 */
final class LatencyStage extends QueueingStage {

    LatencyStage(Link link) {
        super(link);
    }

    @Override
    long tagFor(Chunk chunk) {
        long jitter = attr("jitter");
        return jitter > 0 ? TimeUnit.MILLISECONDS.toNanos(link.random().nextLong(-jitter, jitter)) : 0;
    }

    @Override
    long releaseHead(Held head, long now) {
        long delay = Math.max(0, TimeUnit.MILLISECONDS.toNanos(attr("latency")) + head.tag);
        long due = head.chunk.timestamp + delay;
        if (due - now > 0) {
            return due - now;
        }
        queue.poll();
        head.chunk.timestamp = due;
        next.onData(head.chunk);
        return 0;
    }
}
