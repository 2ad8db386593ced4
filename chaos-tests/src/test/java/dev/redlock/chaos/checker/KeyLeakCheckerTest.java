package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.nemesis.FaultKind;
import org.junit.jupiter.api.Test;

class KeyLeakCheckerTest {
    private final KeyLeakChecker checker = new KeyLeakChecker();

    private static Histories released(long goneAt) {
        return new Histories()
                .lease(0, "c0#1", 1, 80, 100, 300, 400).value("c0#1", "v1")
                .held(0, 90, goneAt, 5, "v1").held(0, goneAt, 2000, 5, "");
    }

    @Test
    void keysGoneAtTheReleaseAreFine() {
        assertEquals(Validity.VALID, checker.check(released(402).history()).validity());
    }

    @Test
    void aKeyThatOutlivesItsReleaseIsALeak() {
        Result r = checker.check(released(1800).history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(1, r.anomalies("key-outlived-accounting").size());
    }

    /** A round invoked at 100 failed at 105; its grant on node 0 appeared at 102. */
    private static Histories failedRound(long goneAt) {
        return new Histories().failedAcquire(1, 100, 105)
                .held(0, 0, 102, 5, "").held(0, 102, goneAt, 5, "x").held(0, goneAt, 2000, 5, "");
    }

    @Test
    void aFailedRoundsGrantReleasedAtOnceIsFine() {
        assertEquals(Validity.VALID, checker.check(failedRound(110).history()).validity());
    }

    @Test
    void aFailedRoundsGrantLeftToItsTtlIsALeak() {
        assertEquals(Validity.INVALID, checker.check(failedRound(1800).history()).validity());
    }

    @Test
    void aFaultThatMayHaveLostTheReplyExcusesTheKey() {
        assertEquals(Validity.VALID, checker.check(failedRound(1800).fault(FaultKind.CUT, 90, 120, 0).history()).validity());
    }

    @Test
    void aDelayingFaultOnlyPushesTheBound() {
        // latency on node 0 until 200: the key may stay until 200 + 1000 + 1000 = 2200
        assertEquals(Validity.VALID, checker.check(failedRound(2100).fault(FaultKind.LATENCY, 90, 200, 0).history()).validity());
        assertEquals(Validity.INVALID, checker.check(failedRound(2400).fault(FaultKind.LATENCY, 90, 200, 0).history()).validity());
        // a fault on another node changes nothing
        assertEquals(Validity.INVALID, checker.check(failedRound(1800).fault(FaultKind.CUT, 90, 120, 1).history()).validity());
    }

    @Test
    void aRoundStillRunningIsNotJudged() {
        Histories h = new Histories().event(Event.Type.INVOKE, Event.Op.ACQUIRE, 1, 100, "", -1, 0)
                .held(0, 0, 102, 5, "").held(0, 102, 1000, 5, "x");
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void aLockKeyWithoutTtlIsFlagged() {
        Histories h = new Histories().lease(0, "c0#1", 1, 80, 100, 300, -1).value("c0#1", "v1").sample(0, 120, "v1", -1);
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(1, r.anomalies("key-without-ttl").size());
    }

    @Test
    void aFailedSamplerIsUnknown() {
        Histories h = released(402);
        h.history().samplerError("ground-truth-n0 died");
        assertEquals(Validity.UNKNOWN, checker.check(h.history()).validity());
        assertEquals(Validity.UNKNOWN, checker.check(new Histories().failedAcquire(0, 1, 2).history()).validity());
    }
}
