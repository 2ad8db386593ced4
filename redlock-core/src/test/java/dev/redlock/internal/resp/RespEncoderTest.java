package dev.redlock.internal.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The exact bytes of encoded commands: ASCII, multi-byte UTF-8 (the buffer sized for ASCII must grow), byte[], numbers, run_id. */
class RespEncoderTest {

    private static String encode(Object... args) {
        ByteBuf buf = RespEncoder.encode(UnpooledByteBufAllocator.DEFAULT, args);
        try {
            return buf.toString(StandardCharsets.UTF_8);
        } finally {
            buf.release();
        }
    }

    @Test
    void asciiArguments() {
        assertEquals("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\n0123456789\r\n", encode("SET", "k", "0123456789"));
    }

    @Test
    void multiByteUtf8IsCountedInBytes() {
        // 'ä' is 2 bytes, '€' 3 and the emoji 4 (a surrogate pair, 2 chars): lengths are bytes, not chars
        assertEquals("*2\r\n$3\r\nGET\r\n$13\r\nväl€\uD83D\uDE00ue\r\n", encode("GET", "väl€\uD83D\uDE00ue"));
    }

    @Test
    void bytesAndNumbers() {
        assertEquals("*3\r\n$2\r\nab\r\n$5\r\n-1234\r\n$0\r\n\r\n", encode(new byte[] {'a', 'b'}, -1234L, ""));
    }
}
