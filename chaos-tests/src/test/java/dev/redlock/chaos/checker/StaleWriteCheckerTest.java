package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StaleWriteCheckerTest {
    private final StaleWriteChecker checker = new StaleWriteChecker();

    @Test
    void increasingTokensAreNotStale() {
        Histories h = new Histories()
                .write(0, "c0#1", 1, 0, 0, 10)
                .write(1, "c1#1", 2, 1, 1, 20)
                .write(0, "c0#2", 5, 2, 2, 30);
        Result r = checker.check(h.history());
        assertEquals(Validity.VALID, r.validity());
        assertEquals(0.0, r.metric("staleAcceptedUnfenced"));
        assertEquals(0.0, r.metric("staleRejectedFenced"));
        assertEquals(3.0, r.metric("writesUnfenced"));
    }

    @Test
    void staleWritesAreCountedAcceptedByUnfencedAndRejectedByFenced() {
        Histories h = new Histories()
                .write(1, "c1#1", 7, 0, 0, 10)  // the new holder writes first
                .write(0, "c0#1", 3, 0, 0, 20)  // the old holder's stale write
                .write(0, "c0#0", 2, 1, 1, 30); // and an even older one
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(2.0, r.metric("staleAcceptedUnfenced"));
        assertEquals(2.0, r.metric("staleRejectedFenced"));
        assertEquals(0.0, r.metric("staleAcceptedFenced"));
        assertEquals(2, r.anomalies("stale-write-accepted").size());
        assertEquals(2, r.anomalies("stale-write-rejected").size());
    }

    @Test
    void aFencedStoreThatTakesAStaleTokenIsInvalid() {
        Histories h = new Histories()
                .rawFenced(1, "c1#1", 7, 10, -1, true)
                .rawFenced(0, "c0#1", 3, 20, 7, true); // broken store
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(1.0, r.metric("staleAcceptedFenced"));
        assertEquals(1, r.anomalies("fenced-accepted-stale").size());
    }

    @Test
    void aFencedStoreThatRefusesAFreshTokenIsInvalid() {
        Histories h = new Histories()
                .rawFenced(1, "c1#1", 7, 10, -1, true)
                .rawFenced(0, "c0#1", 9, 20, 7, false); // broken store
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(1, r.anomalies("fenced-rejected-fresh").size());
    }
}
