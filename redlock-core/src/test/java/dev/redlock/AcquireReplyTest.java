package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ACQUIRE's reply built from the wire: the same list as the generic reply, numbers read unboxed, other shapes declined. */
class AcquireReplyTest {
    private static Object build(Object... elements) {
        long[] ints = new long[16];
        String[] strings = new String[16];
        for (int i = 0; i < elements.length; i++) {
            if (elements[i] instanceof String s) strings[i] = s;
            else ints[i] = (Long) elements[i];
        }
        return AcquireReply.READER.build(elements.length, ints, strings);
    }

    @Test
    void itIsTheGenericReplyWithItsNumbersUnboxed() {
        Object[] e = {1L, 1796382762430537L, 86_400_123L, 1000L, "", 1L, 1796382762430999L, ""};
        List<?> built = assertInstanceOf(AcquireReply.class, build(e));
        List<Object> generic = Arrays.asList(e);
        assertEquals(generic, built);
        assertEquals(built, generic);
        assertEquals(generic.hashCode(), built.hashCode());
        for (int i : new int[] {0, 1, 2, 3, 5, 6}) {
            assertEquals(AcquireReply.longAt(generic, i), AcquireReply.longAt(built, i), "element " + i);
        }
        assertEquals(-5L, AcquireReply.longAt(List.of(0L, -5L), 1), "a generic reply is read as it is");
        assertThrows(IllegalArgumentException.class, () -> AcquireReply.longAt(built, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> built.get(8));
        assertThrows(UnsupportedOperationException.class, () -> built.clear());
        List<?> refused = assertInstanceOf(AcquireReply.class, build(0L, 5L, 9L, 0L, "0123456789ab", 0L, 7L, "m:x+y"));
        assertEquals("0123456789ab", refused.get(4));
        assertEquals("m:x+y", refused.get(7));
    }

    @Test
    void otherShapesAreLeftToTheGenericList() {
        assertNull(build(1L, 2L, 3L, 4L, "", 0L, 7L), "seven elements");
        assertNull(build(1L, 2L, 3L, 4L, "", 0L, 7L, "", 9L), "nine elements");
        assertNull(build(1L, 2L, 3L, 4L, 5L, 0L, 7L, ""), "a number where the holder is");
        assertNull(build(1L, 2L, 3L, 4L, "", 0L, 7L, 8L), "a number where the conflict is");
        assertNull(build("1", 2L, 3L, 4L, "", 0L, 7L, ""), "a string where the status is");
        assertNull(build(1L, 2L, 3L, 4L, "", 0L, "7", ""), "a string where the node's clock is");
        assertNull(build(1L << 40, 2L, 3L, 4L, "", 0L, 7L, ""), "a status out of int range is kept exact by the list");
    }
}
