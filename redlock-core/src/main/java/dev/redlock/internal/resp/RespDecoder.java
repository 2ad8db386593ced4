package dev.redlock.internal.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * RESP2 replies straight to the reply types of {@link RespClient#command(Object...)}: {@code Long} for integers,
 * {@code String} for simple and bulk strings, {@code List<Object>} for arrays, {@link #NIL} for nil, a
 * {@link RedisErrorException} for an error (as a value; the handler fails the command with it). A reply that has not
 * fully arrived is parsed again from its start once more bytes came (replies here are small).
 */
final class RespDecoder extends ByteToMessageDecoder {
    /** A nil reply (Netty cannot pass null along the pipeline). */
    static final Object NIL = new Object();
    private static final Object INCOMPLETE = new Object();
    private static final int MAX_PREALLOCATED = 1024;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            int start = in.readerIndex();
            Object reply = parse(in);
            if (reply == INCOMPLETE) {
                in.readerIndex(start);
                return;
            }
            out.add(reply);
        }
    }

    /** One reply from the reader index, or INCOMPLETE (the reader index is then meaningless). */
    static Object parse(ByteBuf in) {
        if (!in.isReadable()) return INCOMPLETE;
        byte type = in.readByte();
        int lf = in.forEachByte(ByteProcessor.FIND_LF);
        if (lf < 0) return INCOMPLETE;
        int lineStart = in.readerIndex();
        int lineEnd = lf - 1;                       // index of '\r'
        if (lineEnd < lineStart || in.getByte(lineEnd) != '\r') throw new DecoderException("RESP line without CRLF");
        switch (type) {
            case '+' -> {
                String s = in.toString(lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
                in.readerIndex(lf + 1);
                return s;
            }
            case '-' -> {
                String s = in.toString(lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
                in.readerIndex(lf + 1);
                return new RedisErrorException(s);
            }
            case ':' -> {
                long v = parseLong(in, lineStart, lineEnd);
                in.readerIndex(lf + 1);
                return v;
            }
            case '$' -> {
                long len = parseLong(in, lineStart, lineEnd);
                in.readerIndex(lf + 1);
                if (len < 0) return NIL;
                if (len > Integer.MAX_VALUE - 2) throw new DecoderException("RESP bulk string too long: " + len);
                if (in.readableBytes() < len + 2) return INCOMPLETE;
                String s = in.toString(in.readerIndex(), (int) len, StandardCharsets.UTF_8);
                in.skipBytes((int) len + 2);
                return s;
            }
            case '*' -> {
                long n = parseLong(in, lineStart, lineEnd);
                in.readerIndex(lf + 1);
                if (n < 0) return NIL;
                List<Object> list = new ArrayList<>((int) Math.min(n, MAX_PREALLOCATED));
                for (long i = 0; i < n; i++) {
                    Object e = parse(in);
                    if (e == INCOMPLETE) return INCOMPLETE;
                    list.add(e == NIL ? null : e);
                }
                return list;
            }
            default -> throw new DecoderException("unexpected RESP type byte " + (type & 0xff));
        }
    }

    private static long parseLong(ByteBuf in, int from, int to) {
        if (from >= to) throw new DecoderException("empty RESP number");
        boolean negative = in.getByte(from) == '-';
        long v = 0;
        for (int i = negative ? from + 1 : from; i < to; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9) throw new DecoderException("bad RESP number");
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }
}
