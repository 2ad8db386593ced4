package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.history.Event;
import org.junit.jupiter.api.Test;

class MutualExclusionCheckerTest {
    private final MutualExclusionChecker checker = new MutualExclusionChecker();

    @Test
    void overlappingLeasesAreAViolation() {
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 0, 10, 500, 400)   // held [10, 400]
                .lease(1, "c1#1", 2, 50, 100, 500, 300); // held [100, 300]
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(1, r.anomalies().size());
        assertEquals("overlap", r.anomalies().get(0).kind());
        assertEquals(200.0, (r.anomalies().get(0).endNanos() - r.anomalies().get(0).startNanos()) / 1e6, 0.001);
    }

    @Test
    void backToBackLeasesAreNotAViolation() {
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 0, 10, 500, 100)    // held [10, 100]: released at 100
                .lease(1, "c1#1", 2, 90, 100, 500, 200)  // held [100, 200]
                .lease(0, "c0#2", 3, 150, 200, 500, 300); // held [200, 300]
        Result r = checker.check(h.history());
        assertEquals(Validity.VALID, r.validity(), r.anomalies().toString());
        assertEquals(0.0, r.metric("overlaps"));
        assertEquals(3.0, r.metric("leases"));
    }

    @Test
    void windowEndsAtValidityEvenWithoutRelease() {
        // A never releases (stalled) but its validity ended at 110; B acquires at 120: no overlap
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 0, 10, 100, -1)
                .lease(1, "c1#1", 2, 20, 120, 100, 200);
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void successfulExtensionLengthensTheWindow() {
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 0, 10, 100, -1)
                .event(Event.Type.INVOKE, Event.Op.EXTEND, 0, 50, "c0#1", 1, 0)
                .event(Event.Type.OK, Event.Op.EXTEND, 0, 60, "c0#1", 1, 300) // believed held until 360
                .lease(1, "c1#1", 2, 20, 200, 100, 250);
        assertEquals(Validity.INVALID, checker.check(h.history()).validity());
    }

    @Test
    void aLeaseReportedLostEndsItsWindow() {
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 0, 10, 500, -1)
                .event(Event.Type.INVOKE, Event.Op.EXTEND, 0, 50, "c0#1", 1, 0)
                .event(Event.Type.FAIL, Event.Op.EXTEND, 0, 60, "c0#1", 1, 0) // lost at 60
                .lease(1, "c1#1", 2, 20, 200, 100, 250);
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void failedAndUnknownAcquiresHoldNothing() {
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 0, 10, 500, 400)
                .failedAcquire(1, 50, 60)
                .event(Event.Type.INVOKE, Event.Op.ACQUIRE, 2, 70, "", -1, 0)
                .event(Event.Type.INFO, Event.Op.ACQUIRE, 2, 80, "", -1, 0);
        Result r = checker.check(h.history());
        assertEquals(Validity.VALID, r.validity());
        assertTrue(r.anomalies().isEmpty());
    }
}
