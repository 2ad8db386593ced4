package dev.redlock.chaos.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Hands one socket's events (data, close, errors) to its {@link ProxyConnection}. */
final class RelayHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(RelayHandler.class);

    private final ProxyConnection connection;
    private final boolean clientSide;

    RelayHandler(ProxyConnection connection, boolean clientSide) {
        this.connection = connection;
        this.clientSide = clientSide;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (clientSide) {
            connection.dial();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connection.onRead(clientSide, ctx.channel(), (ByteBuf) msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.onInactive(clientSide, ctx.channel());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{} socket error, closing it: {}", clientSide ? "client" : "upstream", cause.toString());
        ctx.close(); // an error ends the stream like EOF does
    }
}
