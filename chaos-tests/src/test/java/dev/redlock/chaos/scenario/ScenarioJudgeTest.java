package dev.redlock.chaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a scenario's claim is judged from its counts: the ground truth and the token order count too. */
class ScenarioJudgeTest {

    private static Counts counts(long violations, long unheld, long keyLeaks, long tokenInversions) {
        return new Counts(10, 10, 10, violations, 0, 0, 0, 0, 1.0, 0, 1, unheld, keyLeaks, tokenInversions);
    }

    private static List<String> judge(Expectation e, Counts c) {
        return ScenarioRunner.judge(e, c.lockViolation() ? Outcome.VIOLATION : Outcome.NONE, c, List.of(), null);
    }

    @Test
    void aCleanRunHoldsItsSafeClaim() {
        assertEquals(List.of(), judge(Expectation.SAFE, counts(0, 0, 0, 0)));
    }

    @Test
    void aLeaseBelievedWithoutAMajorityBreaksASafeClaimEvenWithoutAWrite() {
        List<String> why = judge(Expectation.SAFE, counts(0, 1, 0, 0));
        assertTrue(why.stream().anyMatch(w -> w.contains("no majority")), why.toString());
    }

    @Test
    void aLeaseBelievedWithoutAMajorityIsTheViolationAViolationScenarioExpects() {
        assertTrue(counts(0, 1, 0, 0).lockViolation());
        assertTrue(judge(Expectation.VIOLATION, counts(0, 1, 0, 0)).stream().noneMatch(w -> w.contains("did not bite")));
    }

    @Test
    void leakedKeysFailEveryScenario() {
        for (Expectation e : Expectation.values()) {
            assertTrue(judge(e, counts(0, 0, 1, 0)).stream().anyMatch(w -> w.contains("outlived")), e.toString());
        }
    }

    @Test
    void aTokenGoingBackwardsBreaksEveryClaimThatTheLockHolds() {
        for (Expectation e : List.of(Expectation.SAFE, Expectation.REFUSED)) {
            assertTrue(judge(e, counts(0, 0, 0, 1)).stream().anyMatch(w -> w.contains("token")), e.toString());
        }
    }

    @Test
    void aTokenGoingBackwardsIsPartOfTheViolationAViolationScenarioShows() {
        // d1b: the second holder's token comes from the restarted node's stale fences; the fenced store refuses it
        Counts c = new Counts(10, 10, 10, 1, 1, 1, 0, 0, 1.0, 0, 1, 0, 0, 1);
        assertEquals(List.of(), judge(Expectation.VIOLATION, c));
    }
}
