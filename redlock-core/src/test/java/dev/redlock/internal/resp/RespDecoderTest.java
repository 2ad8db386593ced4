package dev.redlock.internal.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A command's own reader of flat array replies: built from the parsed elements when the reply is flat, the generic
 * reply (equal to what the generic parse gives) for every other shape, nothing until the whole reply is here.
 */
class RespDecoderTest {
    /** What a reader was given, as one list ("s:" strings, "i:" integers), wrapped so it is not a List. */
    record Built(List<String> elements) {}

    private static final FlatArrayReader RECORDING = (n, ints, strings) -> {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(strings[i] != null ? "s:" + strings[i] : "i:" + ints[i]);
        return new Built(out);
    };

    private static ByteBuf bytes(String resp) {
        return Unpooled.copiedBuffer(resp, StandardCharsets.UTF_8);
    }

    private static Object flat(String resp, FlatArrayReader reader) {
        ByteBuf in = bytes(resp);
        try {
            Object r = new RespDecoder(null).parse(in, reader);
            assertEquals(0, in.readableBytes(), "the whole reply was read: " + resp);
            return r;
        } finally {
            in.release();
        }
    }

    private static Object generic(String resp) {
        ByteBuf in = bytes(resp);
        try {
            return RespDecoder.parse(in);
        } finally {
            in.release();
        }
    }

    @Test
    void aFlatArrayIsBuiltByTheReader() {
        Object r = flat("*5\r\n:1\r\n$3\r\nabc\r\n+OK\r\n:-1796382762430537\r\n$0\r\n\r\n", RECORDING);
        assertEquals(new Built(List.of("i:1", "s:abc", "s:OK", "i:-1796382762430537", "s:")), r);
        assertEquals(new Built(List.of()), flat("*0\r\n", RECORDING));
    }

    @Test
    void everyOtherShapeGetsTheGenericReply() {
        for (String resp : List.of(
                "*2\r\n:1\r\n*1\r\n:2\r\n",              // nested
                "*2\r\n:1\r\n$-1\r\n",                    // nil element
                "*2\r\n:1\r\n-ERR inside\r\n",            // error element
                "*-1\r\n",                                // nil array
                ":42\r\n", "$2\r\nhi\r\n", "+OK\r\n",     // not arrays
                "*17\r\n" + ":1\r\n".repeat(17))) {       // longer than the reader is given
            Object expected = generic(resp);
            Object got = flat(resp, RECORDING);
            // (an error element is an exception, equal only by its text)
            assertEquals(expected.getClass(), got.getClass(), resp);
            assertEquals(String.valueOf(expected), String.valueOf(got), resp);
        }
        assertTrue(flat("-ERR nope\r\n", RECORDING) instanceof RedisErrorException);
    }

    @Test
    void aReaderThatDeclinesGivesTheGenericList() {
        String resp = "*3\r\n:7\r\n$1\r\nx\r\n:-2\r\n";
        Object got = flat(resp, (n, ints, strings) -> null);
        assertEquals(List.of(7L, "x", -2L), got);
        assertEquals(generic(resp), got);
    }

    @Test
    void nothingIsBuiltBeforeTheWholeReplyArrived() {
        String resp = "*4\r\n:12\r\n$5\r\nhello\r\n+OK\r\n:-3\r\n";
        byte[] all = resp.getBytes(StandardCharsets.UTF_8);
        RespDecoder decoder = new RespDecoder(null);
        for (int cut = 0; cut < all.length; cut++) {
            ByteBuf part = Unpooled.wrappedBuffer(Arrays.copyOf(all, cut));
            Object r = decoder.parse(part, RECORDING);
            assertTrue(!(r instanceof Built) && !(r instanceof List<?>), "a reply was built from " + cut + " bytes: " + r);
        }
        assertEquals(new Built(List.of("i:12", "s:hello", "s:OK", "i:-3")), flat(resp, RECORDING));
    }

    @Test
    void theReadersArraysAreReusedAndStringsNotKept() {
        RespDecoder decoder = new RespDecoder(null);
        List<String[]> seen = new ArrayList<>();
        FlatArrayReader keep = (n, ints, strings) -> {
            seen.add(strings);
            return new Built(List.of(String.valueOf(strings[0])));
        };
        assertEquals(new Built(List.of("a")), decoder.parse(bytes("*1\r\n$1\r\na\r\n"), keep));
        assertEquals(null, seen.get(0)[0], "no string of a past reply stays referenced");
        assertEquals(new Built(List.of("null")), decoder.parse(bytes("*1\r\n:5\r\n"), keep));
        assertSame(seen.get(0), seen.get(1), "one array per decoder");
    }
}
