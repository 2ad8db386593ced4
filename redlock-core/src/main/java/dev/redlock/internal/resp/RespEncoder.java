package dev.redlock.internal.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

/**
 * A command as a RESP2 array of bulk strings, written into one pooled buffer: no intermediate strings or byte
 * arrays. The buffer is sized for the arguments as ASCII (what the library's keys, owners, numbers and script SHAs
 * are), so it never grows on the hot path; each argument's UTF-8 length is computed once, as it is written.
 * Arguments: {@code String} (UTF-8), {@code byte[]} or {@code Number} (decimal).
 */
final class RespEncoder {
    private static final byte[] CRLF = {'\r', '\n'};

    private RespEncoder() {}

    /** The caller's array is not modified (a retry may be written on another connection). */
    static ByteBuf encode(ByteBufAllocator alloc, Object[] args) {
        int size = 1 + digits(args.length) + 2;
        for (Object arg : args) {
            Object a = resolve(arg);
            int len = a instanceof byte[] b ? b.length : ((CharSequence) a).length();   // exact for ASCII
            size += 1 + digits(len) + 2 + len + 2;
        }
        ByteBuf buf = alloc.ioBuffer(size);
        buf.writeByte('*');
        writeDecimal(buf, args.length);
        buf.writeBytes(CRLF);
        for (Object arg : args) {
            Object a = resolve(arg);
            buf.writeByte('$');
            if (a instanceof byte[] b) {
                writeDecimal(buf, b.length);
                buf.writeBytes(CRLF);
                buf.writeBytes(b);
            } else {
                CharSequence text = (CharSequence) a;
                int len = ByteBufUtil.utf8Bytes(text);
                writeDecimal(buf, len);
                buf.writeBytes(CRLF);
                ByteBufUtil.reserveAndWriteUtf8(buf, text, len);   // exactly len: no growth beyond the buffer
            }
            buf.writeBytes(CRLF);
        }
        return buf;
    }

    private static Object resolve(Object a) {
        if (a instanceof CharSequence || a instanceof byte[]) return a;
        if (a instanceof Number) return a.toString();
        throw new IllegalArgumentException("RESP arguments must be String, byte[] or Number, got "
                + (a == null ? "null" : a.getClass().getName()));
    }

    private static int digits(int v) {
        int d = 1;
        while (v >= 10) {
            v /= 10;
            d++;
        }
        return d;
    }

    private static void writeDecimal(ByteBuf buf, int v) {
        int div = 1;
        while (v / div >= 10) div *= 10;
        for (; div > 0; div /= 10) buf.writeByte('0' + (v / div) % 10);
    }
}
