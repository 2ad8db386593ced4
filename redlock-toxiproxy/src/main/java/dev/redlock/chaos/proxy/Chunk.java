package dev.redlock.chaos.proxy;

import io.netty.buffer.ByteBuf;

/**
 * Bytes read in one go from a link's source, with the time they were read. The latency toxic releases a chunk at
 * {@code timestamp + latency} and then moves the timestamp to the release time, so delays count from the read and
 * do not pile up behind earlier chunks.
 */
final class Chunk {

    final ByteBuf data;
    long timestamp;

    Chunk(ByteBuf data, long timestamp) {
        this.data = data;
        this.timestamp = timestamp;
    }

    int size() {
        return data.readableBytes();
    }

    /** Splits off the first {@code length} bytes as a chunk of their own, with the same timestamp. */
    Chunk take(int length) {
        return new Chunk(data.readRetainedSlice(length), timestamp);
    }
}
