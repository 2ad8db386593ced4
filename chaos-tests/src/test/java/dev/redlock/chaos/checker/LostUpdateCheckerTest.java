package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;
import org.junit.jupiter.api.Test;

class LostUpdateCheckerTest {
    private final LostUpdateChecker checker = new LostUpdateChecker();

    @Test
    void serialIncrementsLoseNothing() {
        Histories h = new Histories()
                .write(0, "c0#1", 1, 0, 0, 10)
                .write(1, "c1#1", 2, 1, 1, 20)
                .write(0, "c0#2", 3, 2, 2, 30);
        Result r = checker.check(h.history());
        assertEquals(Validity.VALID, r.validity());
        assertEquals(0.0, r.metric("lostUpdates"));
        assertEquals(3.0, r.metric("finalValue"));
    }

    @Test
    void interleavedReadModifyWritesLoseUpdates() {
        // A reads 0; B reads 0 and writes 1; C reads 1 and writes 2; A writes 1 over 2: two increments lost
        Histories h = new Histories()
                .write(1, "c1#1", 2, 0, 0, 10)
                .write(2, "c2#1", 3, 1, 1, 20)
                .write(0, "c0#1", 1, 0, 0, 30);
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(2.0, r.metric("lostUpdates"));
        assertEquals(1, r.anomalies("lost-update").size());
    }

    @Test
    void aHistoryWithAMissingWriteIsUnknownNotValid() {
        History h = new History(5, 3);
        h.write(Write.Store.UNFENCED, 0, 1, 1, "c0#1", 1, 0, 1, 0, -1, true);
        h.write(Write.Store.UNFENCED, 1, 2, 2, "c1#1", 2, 5, 6, 5, 1, true); // value went 1 -> 5 off the record
        Result r = checker.check(h);
        assertEquals(Validity.UNKNOWN, r.validity(), r.anomalies().toString());
    }
}
