package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The differential test's comparison tolerates only what it says it does, and flags the rest. */
class ReplyComparisonTest {
    private final ReplyComparison c = ReplyComparison.create();
    private static final String SHA = "a".repeat(40);

    @Test
    void integersAreExactUnlessTheSkewedModelShowsThemTimeDerived() {
        assertNull(c.mismatch(1L, 1L, 1L));
        assertNotNull(c.mismatch(2L, 1L, 1L), "a status code that differs is a mismatch");
        assertNotNull(c.mismatch(2L, 1L, null));
        assertNull(c.mismatch(1_796_316_602_296L, 1_796_316_602_304L, 1_796_320_202_304L), "a timestamp within the tolerance");
        assertNotNull(c.mismatch(1_796_316_600_000L, 1_796_316_602_304L, 1_796_320_202_304L), "2.3 s apart is too far");
        assertNull(c.mismatch("1796316602296123", "1796316602304123", "1796320202304123"), "an integer string, in microseconds");
        assertEquals(2, c.toleratedTimes);
    }

    @Test
    void structureTypesAndNilMustMatch() {
        assertNull(c.mismatch(Arrays.asList(1L, null, "a"), Arrays.asList(1L, null, "a"), null));
        assertNotNull(c.mismatch(List.of(1L), List.of(1L, 2L), null));
        assertNotNull(c.mismatch(null, "x", null));
        assertNotNull(c.mismatch("1", 1L, null));
        assertNotNull(c.mismatch(new StatusReply("OK"), "OK", null), "a status is not a bulk string");
        assertNotNull(c.mismatch("a", "b", "b"));
    }

    @Test
    void errorTextsAreExactExceptALuaMessageAtTheSameScriptAndLine() {
        assertNull(c.mismatch(new ErrorReply("ERR syntax error"), new ErrorReply("ERR syntax error"), null));
        assertNotNull(c.mismatch(new ErrorReply("ERR syntax error"), new ErrorReply("ERR wrong"), null));
        assertNull(c.mismatch(new ErrorReply("ERR user_script:3: attempt to compare number with nil script: " + SHA + ", on @user_script:3."),
                new ErrorReply("ERR user_script:3: attempt to compare nil with number script: " + SHA + ", on @user_script:3."), null));
        assertNotNull(c.mismatch(new ErrorReply("ERR user_script:3: x script: " + SHA + ", on @user_script:3."),
                new ErrorReply("ERR user_script:4: x script: " + SHA + ", on @user_script:4."), null), "another line");
        assertNotNull(c.mismatch(new ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value script: " + SHA
                + ", on @user_script:1."), new ErrorReply("ERR user_script:1: x script: " + SHA + ", on @user_script:1."), null));
        assertEquals(1, c.toleratedLuaMessages);
    }

    @Test
    void ttlPresenceIsExactAndTheRestWithinTheTolerance() {
        assertNull(c.ttl(-1, -1));
        assertNotNull(c.ttl(-1, 5000));
        assertNull(c.ttl(29_990, 30_000));
        assertNotNull(c.ttl(20_000, 30_000));
    }
}
