package dev.redlock.chaos.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns HTTP requests into {@link ControlApi} calls on the control event loop and writes the answer once the
 * request's {@link Settlement} is done (at most {@value #SETTLE_MILLIS} ms later), in request order. The body is
 * read as JSON whatever the Content-Type; every answer, including a malformed request, is JSON. One instance per
 * HTTP connection.
 */
final class ControlHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(ControlHttpHandler.class);

    /** Longest wait for open connections to take a change in before answering anyway. */
    private static final long SETTLE_MILLIS = 2_000;

    private final ControlApi api;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private boolean answering;

    ControlHttpHandler(ControlApi api) {
        this.api = api;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (answering) {
            waiting.add(request.retain()); // pipelined: answer in order
            return;
        }
        serve(ctx, request);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        FullHttpRequest request;
        while ((request = waiting.poll()) != null) {
            request.release();
        }
        ctx.fireChannelInactive();
    }

    private void serve(ChannelHandlerContext ctx, FullHttpRequest request) {
        ControlApi.Response response;
        if (!request.decoderResult().isSuccess()) {
            ApiError error = new ApiError(400, "malformed HTTP request");
            response = new ControlApi.Response(400, error.toJson());
        } else {
            List<String> path = segments(new QueryStringDecoder(request.uri()).rawPath());
            String body = request.content().toString(StandardCharsets.UTF_8);
            response = api.handle(request.method().name(), path, body);
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess();
        answering = true;
        response.settlement().whenSettled(ctx.executor(), SETTLE_MILLIS, () -> {
            write(ctx, response, keepAlive);
            answering = false;
            FullHttpRequest next = waiting.poll();
            if (next != null) {
                try {
                    serve(ctx, next);
                } finally {
                    next.release();
                }
            }
        });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("control connection error: {}", cause.toString());
        ctx.close();
    }

    private static void write(ChannelHandlerContext ctx, ControlApi.Response response, boolean keepAlive) {
        ByteBuf content = response.body() == null
                ? Unpooled.EMPTY_BUFFER
                : Unpooled.copiedBuffer(response.body().toString(), StandardCharsets.UTF_8);
        FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(response.status()), content);
        if (response.body() != null) {
            http.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        }
        if (response.status() != 204) {
            http.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        }
        if (keepAlive) {
            http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(http);
        } else {
            http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Splits a raw path into percent-decoded segments; {@code /proxies/a} gives {@code [proxies, a]}. */
    static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        String trimmed = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
        if (trimmed.isEmpty()) {
            return segments;
        }
        for (String segment : trimmed.split("/", -1)) {
            segments.add(percentDecode(segment));
        }
        return segments;
    }

    private static String percentDecode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        byte[] raw = segment.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%' && i + 2 < raw.length && isHex(raw[i + 1]) && isHex(raw[i + 2])) {
                bytes.write(Character.digit(raw[i + 1], 16) * 16 + Character.digit(raw[i + 2], 16));
                i += 2;
            } else {
                bytes.write(raw[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }
}
