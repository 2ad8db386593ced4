package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TokenOrderCheckerTest {
    private final TokenOrderChecker checker = new TokenOrderChecker();

    @Test
    void successiveHoldersWithRisingTokensAreFine() {
        Histories h = new Histories().lease(0, "c0#1", 5, 0, 10, 500, 100).lease(1, "c1#1", 6, 90, 110, 500, 200);
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }

    @Test
    void aRepeatedTokenIsFoundWithoutAnyWrite() {
        Histories h = new Histories().lease(0, "c0#1", 5, 0, 10, 500, 100).lease(1, "c1#1", 5, 90, 110, 500, 200);
        Result r = checker.check(h.history());
        assertEquals(Validity.INVALID, r.validity());
        assertEquals(1, r.anomalies("token-not-increasing").size());
    }

    @Test
    void aLowerTokenAfterAnExpiredLeaseIsFound() {
        // c0#1 never released, its validity ended at 110; c1#1 came after with a lower token
        Histories h = new Histories().lease(0, "c0#1", 7, 0, 10, 100, -1).lease(1, "c1#1", 6, 90, 120, 500, 200);
        assertEquals(Validity.INVALID, checker.check(h.history()).validity());
    }

    @Test
    void overlappingLeasesAreLeftToTheMutualExclusionChecker() {
        Histories h = new Histories().lease(0, "c0#1", 7, 0, 10, 500, 300).lease(1, "c1#1", 6, 90, 120, 500, 200);
        assertEquals(Validity.VALID, checker.check(h.history()).validity());
    }
}
