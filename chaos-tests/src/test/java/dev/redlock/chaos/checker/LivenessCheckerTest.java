package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.chaos.history.History;
import java.util.List;
import org.junit.jupiter.api.Test;

class LivenessCheckerTest {
    private final LivenessChecker checker = new LivenessChecker();

    @Test
    void successRateAndLongestGapWithoutHolder() {
        Histories h = new Histories();
        History hist = h.history();
        hist.span(h.at(0), h.at(500));
        h.lease(0, "c0#1", 1, 0, 10, 500, 100)
                .failedAcquire(1, 120, 130)
                .lease(1, "c1#1", 2, 300, 400, 500, 450); // gap without holder: 100..400 = 300 ms
        Result r = checker.check(hist);
        assertEquals(Validity.VALID, r.validity());
        assertEquals(3.0, r.metric("acquireAttempts"));
        assertEquals(2.0 / 3, r.metric("successRate"), 1e-9);
        assertEquals(300.0, r.metric("longestNoHolderMs"), 1e-6); // [100, 400]; then [450, 500]
    }

    @Test
    void theLongestGapIgnoresTimeWhenAMajorityWasDown() {
        Histories h = new Histories();
        h.history().span(h.at(0), h.at(1000));
        h.lease(0, "c0#1", 1, 0, 10, 500, 100)
                .lease(1, "c1#1", 2, 800, 900, 500, 1000)
                .fault(100, 850, true, 0, 1, 2); // 3 of 5 down: [100, 850] does not count
        Result r = checker.check(h.history());
        assertEquals(50.0, r.metric("longestNoHolderMs"), 1e-6); // [850, 900]
        assertEquals(250.0, r.metric("majorityUpMs"), 1e-6);
    }

    @Test
    void gapsWhileAMajorityIsDownDoNotCount() {
        long[] span = {0, 1000};
        // holders cover [0,100] and [900,1000]; a majority is down in [100, 850]
        var gaps = LivenessChecker.subtract(span, List.of(new long[] {0, 100}, new long[] {900, 1000}));
        assertEquals(1, gaps.size());
        assertEquals(100, gaps.get(0)[0]);
        assertEquals(900, gaps.get(0)[1]);
        Histories h = new Histories();
        h.fault(100, 850, true, 0, 1, 2);
        var up = LivenessChecker.majorityUp(h.history(), h.at(0), h.at(1000));
        assertEquals(2, up.size());
        assertEquals(h.at(850), up.get(1)[0]);
    }
}
