package dev.redlock.chaos.proxy;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * The end of every chain: writes chunks to the link's target socket. The end of stream closes the target once
 * everything before it is written; anything arriving after that is dropped.
 */
final class OutputStage extends Stage {

    private final Channel target;
    private boolean ended;

    OutputStage(Link link, Channel target) {
        super(link);
        this.target = target;
    }

    @Override
    void onData(Chunk chunk) {
        if (ended || link.closed() || !target.isActive()) {
            link.discard(chunk);
            return;
        }
        int size = chunk.size();
        target.writeAndFlush(chunk.data).addListener(f -> link.written(size));
    }

    @Override
    void onEof() {
        if (!ended) {
            ended = true;
            target.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    void reconfigured(boolean first) {
        // not a toxic
    }

    @Override
    void removed() {
        // never removed
    }
}
