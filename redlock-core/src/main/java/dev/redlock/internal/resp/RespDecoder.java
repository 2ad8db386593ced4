package dev.redlock.internal.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * RESP2 replies straight to the reply types of {@link RespClient#command(Object...)}: {@code Long} for integers,
 * {@code String} for simple and bulk strings, {@code List<Object>} for arrays, {@link #NIL} for nil, a
 * {@link RedisErrorException} for an error (as a value; the handler fails the command with it). A command with a
 * {@link FlatArrayReader} gets a flat array reply built by that reader instead (no list, no boxed numbers). A reply
 * that has not fully arrived is parsed again from its start once more bytes came (replies here are small). One reply
 * per {@link #decode} call, so the connection has taken the previous reply's command off its queue when the next
 * reply's command is looked up.
 */
final class RespDecoder extends ByteToMessageDecoder {
    /** A nil reply (Netty cannot pass null along the pipeline). */
    static final Object NIL = new Object();
    private static final Object INCOMPLETE = new Object();
    private static final Object NOT_FLAT = new Object();
    private static final int MAX_PREALLOCATED = 1024;
    /** The longest array a {@link FlatArrayReader} is given (longer ones get the generic reply). */
    static final int MAX_FLAT = 16;

    private final RespChannel channel;          // null: the generic reply for every command
    private final long[] ints = new long[MAX_FLAT];
    private final String[] strings = new String[MAX_FLAT];

    RespDecoder(RespChannel channel) {
        this.channel = channel;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        RespCommand next = channel == null ? null : channel.awaitingReply();
        FlatArrayReader reader = next == null ? null : next.flatArrayReader();
        int start = in.readerIndex();
        Object reply = reader == null ? parse(in) : parse(in, reader);
        if (reply == INCOMPLETE) {
            in.readerIndex(start);
            return;
        }
        out.add(reply);
    }

    /** One reply from the reader index, a flat array built by {@code reader}; or INCOMPLETE. */
    Object parse(ByteBuf in, FlatArrayReader reader) {
        int start = in.readerIndex();
        if (in.isReadable() && in.getByte(start) == '*') {
            Object flat = flat(in, reader);
            if (flat != NOT_FLAT) return flat;
            in.readerIndex(start);
        }
        return parse(in);
    }

    /** A flat array from the reader index (at its '*'), INCOMPLETE, or NOT_FLAT (the reader index is then meaningless). */
    private Object flat(ByteBuf in, FlatArrayReader reader) {
        in.skipBytes(1);
        int lf = lineEnd(in);
        if (lf < 0) return INCOMPLETE;
        long n = parseLong(in, in.readerIndex(), lf - 1);
        in.readerIndex(lf + 1);
        if (n < 0 || n > MAX_FLAT) return NOT_FLAT;
        int size = (int) n;
        try {
            for (int i = 0; i < size; i++) {
                if (!in.isReadable()) return INCOMPLETE;
                byte type = in.getByte(in.readerIndex());
                if (type == ':') {                  // the one element parsed here: its number kept unboxed
                    in.skipBytes(1);
                    int end = lineEnd(in);
                    if (end < 0) return INCOMPLETE;
                    ints[i] = parseLong(in, in.readerIndex(), end - 1);
                    in.readerIndex(end + 1);
                    strings[i] = null;
                } else if (type == '$' || type == '+') {
                    Object e = parse(in);
                    if (e == INCOMPLETE) return INCOMPLETE;
                    if (!(e instanceof String text)) return NOT_FLAT;   // a nil bulk string
                    strings[i] = text;
                } else {
                    return NOT_FLAT;
                }
            }
            Object built = reader.build(size, ints, strings);
            if (built != null) return built;
            List<Object> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) list.add(strings[i] != null ? strings[i] : (Object) ints[i]);
            return list;
        } finally {
            Arrays.fill(strings, 0, size, null);
        }
    }

    /** The index of the LF ending the line at the reader index, checked to follow a CR; -1 when not all here. */
    private static int lineEnd(ByteBuf in) {
        int lf = in.forEachByte(ByteProcessor.FIND_LF);
        if (lf < 0) return -1;
        if (lf - 1 < in.readerIndex() || in.getByte(lf - 1) != '\r') throw new DecoderException("RESP line without CRLF");
        return lf;
    }

    /** One reply from the reader index, or INCOMPLETE (the reader index is then meaningless). */
    static Object parse(ByteBuf in) {
        if (!in.isReadable()) return INCOMPLETE;
        byte type = in.readByte();
        int lf = lineEnd(in);
        if (lf < 0) return INCOMPLETE;
        int lineStart = in.readerIndex();
        int lineEnd = lf - 1;                       // index of '\r'
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
