package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.history.Event;
import org.junit.jupiter.api.Test;

class GroundTruthCheckerTest {
    private final GroundTruthChecker checker = new GroundTruthChecker();

    /** Lease c0#1 (value v1) believed held over [100, 400]; nodes 0 and 1 hold v1 over [90, 410), 3 and 4 never. */
    private static Histories leaseOnTwoNodes() {
        return new Histories()
                .lease(0, "c0#1", 1, 80, 100, 300, 400).value("c0#1", "v1")
                .held(0, 90, 410, 5, "v1").held(1, 90, 410, 5, "v1")
                .held(3, 0, 500, 5, "").held(4, 0, 500, 5, "other");
    }

    @Test
    void aLeaseAMajorityHoldsThroughoutIsValid() {
        Histories h = leaseOnTwoNodes().held(2, 90, 410, 5, "v1").held(2, 410, 500, 5, "");
        Result r = checker.check(h.history());
        assertEquals(Validity.VALID, r.validity(), r.anomalies().toString());
        assertEquals(0.0, r.metric("believedWithoutMajority"));
    }

    @Test
    void believingALeaseAfterTheMajorityLostItIsAViolationWithoutAnyWrite() {
        // node 2's copy goes at 300 (an early expiry): from then on only 2 of 5 hold v1 while c0#1 believes until 400
        Histories h = leaseOnTwoNodes().held(2, 90, 300, 5, "v1").held(2, 300, 500, 5, "");
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        Anomaly a = r.anomalies("believed-without-majority").get(0);
        assertEquals(0, a.clients().get(0));
        double ms = r.metric("believedWithoutMajorityMs");
        assertTrue(ms > 95 && ms <= 100, "about 100 ms without a majority, got " + ms);
    }

    @Test
    void aNodeThatCannotBeReadCountsAsHolding() {
        Histories h = leaseOnTwoNodes().held(2, 90, 300, 5, "v1").unanswered(2, 300, 500, 5);
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void aNodeThatWasUnreadableBeforeItLostTheValueMayHaveRestartedIntoQuarantine() {
        Histories h = leaseOnTwoNodes().held(2, 90, 280, 5, "v1").unanswered(2, 280, 300, 5).held(2, 300, 500, 5, "");
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void whatTheClientIsToldExtendsWhatItBelieves() {
        // validity 100 at 100 (deadline 200), node 2 loses v1 at 300: fine ...
        Histories ok = new Histories()
                .lease(0, "c0#1", 1, 80, 100, 100, 500).value("c0#1", "v1")
                .held(0, 90, 510, 5, "v1").held(1, 90, 510, 5, "v1").held(2, 90, 300, 5, "v1").held(2, 300, 600, 5, "")
                .held(3, 0, 600, 5, "").held(4, 0, 600, 5, "");
        assertEquals(Validity.VALID, checker.check(ok.history()).validity());
        // ... unless isValid() told it at 180 that 200 ms were left (a watchdog extension): then it believed until 380
        ok.event(Event.Type.OK, Event.Op.VALID, 0, 180, "c0#1", 1, 200);
        assertEquals(Validity.INVALID, checker.check(ok.history()).validity());
    }

    @Test
    void aLeaseShorterThanTheSamplingIntervalIsNotJudgedOnNodesThatNeverShowedIt() {
        // held [100, 103] only: node 2 granted too, but no reading fell inside its short life there
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 98, 100, 300, 103).value("c0#1", "v1")
                .held(0, 0, 500, 5, "").held(1, 0, 500, 5, "").held(2, 0, 500, 5, "")
                .held(3, 0, 500, 5, "").held(4, 0, 500, 5, "");
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void aFailedSamplerIsUnknownNeverAPass() {
        Histories h = leaseOnTwoNodes().held(2, 90, 410, 5, "v1");
        h.history().samplerError("ground-truth-n2 died");
        assertEquals(Validity.UNKNOWN, checker.check(h.history()).validity());
    }

    @Test
    void leasesWithoutSamplesOrWithoutTheirValueAreUnknown() {
        assertEquals(Validity.UNKNOWN, checker.check(new Histories().lease(0, "c0#1", 1, 80, 100, 300, 400)
                .value("c0#1", "v1").history()).validity());
        assertEquals(Validity.UNKNOWN, checker.check(new Histories().lease(0, "c0#1", 1, 80, 100, 300, 400)
                .held(0, 90, 410, 5, "v1").history()).validity());
    }

    @Test
    void aHistoryWithoutLeasesIsValid() {
        assertEquals(Validity.VALID, checker.check(new Histories().history()).validity());
    }
}
