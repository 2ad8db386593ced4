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
    void aNodeRestartedWhileTheLeaseWasHeldCountsAsHoldingItQuarantinesEveryone() {
        Histories h = leaseOnTwoNodes().held(2, 90, 280, 5, "v1").unanswered(2, 280, 300, 5)
                .restart(2).held(2, 300, 500, 5, "");
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void aNodeUnreadableForAWhileThatKeptItsIdentityLostTheValueForReal() {
        // a pause or a lost connection, not a restart: the same memory, so the value is gone (an eviction, say)
        Histories h = leaseOnTwoNodes().held(2, 90, 280, 5, "v1").unanswered(2, 280, 300, 5).held(2, 300, 500, 5, "");
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertTrue(r.metric("believedWithoutMajorityMs") > 95, r.anomalies().toString());
    }

    /**
     * Scenario d6's shape: node 2 grants the lease at about 95 ms, between two readings, and is killed and restarted
     * (without persistence) before the next one: no reading ever showed the value there.
     */
    private static Histories restartedBetweenTwoReadings() {
        return leaseOnTwoNodes().held(2, 0, 94, 5, "").restart(2).held(2, 99, 500, 5, "");
    }

    @Test
    void aNodeRestartedBetweenTwoReadingsAfterTheAcquireCountsAsHolding() {
        Result r = checker.check(restartedBetweenTwoReadings().history());
        assertEquals(Validity.VALID, r.validity(), r.anomalies().toString());
    }

    @Test
    void theSameReadingsWithoutARestartAreAViolation() {
        // the twin: node 2 never showed the value and kept its identity, so it never held it
        Histories h = leaseOnTwoNodes().held(2, 0, 94, 5, "").held(2, 99, 500, 5, "");
        assertEquals(Validity.INVALID, checker.check(h.history()).validity());
    }

    @Test
    void aRestartedNodeSeenHoldingAnotherLeasesValueNoLongerCounts() {
        // scenario 3 and d1b: without the guard the restarted node grants the next client, and is read holding it
        Histories h = leaseOnTwoNodes().held(2, 90, 200, 5, "v1").unanswered(2, 200, 210, 5).restart(2)
                .held(2, 210, 250, 5, "").held(2, 250, 500, 5, "v2").value("c1#1", "v2");
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        double ms = r.metric("believedWithoutMajorityMs");
        assertTrue(ms > 145 && ms <= 150, "about 150 ms without a majority (from 250 to 400), got " + ms);
    }

    @Test
    void aRestartedNodeReloadingAnEarlierLeasesValueStillCounts() {
        // d1a: the snapshot was taken while an earlier lease held (c2#0, value v0; released at once, so its own window
        // is empty), so the restarted node comes back holding v0 until its TTL: reloaded, not granted by the new process
        Histories h = leaseOnTwoNodes().lease(2, "c2#0", 0, 20, 25, 300, 25).value("c2#0", "v0")
                .held(2, 90, 200, 5, "v1").unanswered(2, 200, 210, 5).restart(2)
                .held(2, 210, 260, 5, "v0").held(2, 260, 500, 5, "");
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void aRestartedNodeHoldingALeaseGrantedAfterTheRestartNoLongerCounts() {
        // the twin: the same readings, but v0 belongs to a lease whose acquire was invoked after the restart
        Histories h = leaseOnTwoNodes().lease(1, "c1#1", 1, 230, 235, 300, 500).value("c1#1", "v0")
                .held(2, 90, 200, 5, "v1").unanswered(2, 200, 210, 5).restart(2)
                .held(2, 210, 240, 5, "").held(2, 240, 500, 5, "v0");
        assertEquals(Validity.INVALID, checker.check(h.history()).validity());
    }

    @Test
    void aRestartedNodeThatGrantedARoundWithoutALeaseStillCounts() {
        // d6: the restarted node grants a client of the lax group, whose own check counts it out: no second holder
        Histories h = leaseOnTwoNodes().held(2, 90, 200, 5, "v1").unanswered(2, 200, 210, 5).restart(2)
                .held(2, 210, 250, 5, "").held(2, 250, 260, 5, "failed-round").held(2, 260, 500, 5, "");
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void aRestartBeforeTheAcquireWasInvokedProtectsNothing() {
        // node 2 restarted at 50, the acquire was invoked at 80: the new process never held v1
        Histories h = leaseOnTwoNodes().held(2, 0, 50, 5, "").restart(2).held(2, 55, 500, 5, "");
        assertEquals(Validity.INVALID, checker.check(h.history()).validity());
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

    /**
     * A client with a node list of its own (the first 3 nodes, quorum 2: an old client during a change of the node
     * list) holds a quorum of its list on nodes 0 and 1 although two of the five nodes are no majority of them all;
     * the same lease judged by the five nodes is not held.
     */
    @Test
    void aLeaseIsJudgedByItsClientsOwnNodeList() {
        Histories h = leaseOnTwoNodes().held(2, 0, 500, 5, "");
        assertEquals(Validity.INVALID, checker.check(h.history()).validity(), "2 of 5 is no majority");
        h.history().clientList(0, 3, 2);
        Result r = checker.check(h.history());
        assertEquals(Validity.VALID, r.validity(), "2 of its 3 nodes: " + r.anomalies());
    }
}
