package dev.redlock.chaos.proxy;

/**
 * {@code slicer}: splits chunks into pieces of {@code average_size} +/- {@code size_variation} bytes and waits
 * {@code delay} microseconds after each piece. An {@code average_size} of 0 passes chunks whole (the real server
 * loops forever there). Pieces sent with no delay may be merged again by TCP on the way to the reader.
 */
final class SlicerStage extends QueueingStage {

    private long nextFree;

    SlicerStage(Link link) {
        super(link);
    }

    @Override
    long releaseHead(Held head, long now) {
        long average = attr("average_size");
        if (average <= 0) {
            queue.poll();
            next.onData(head.chunk);
            return 0;
        }
        if (nextFree - now > 0) {
            return nextFree - now;
        }
        long variation = Math.min(attr("size_variation"), average - 1);
        long size = average + (variation > 0 ? link.random().nextLong(-variation, variation + 1) : 0);
        if (size >= head.chunk.size()) {
            queue.poll();
            next.onData(head.chunk);
        } else {
            next.onData(head.chunk.take((int) size));
        }
        nextFree = now + attr("delay") * 1_000L;
        return 0;
    }
}
