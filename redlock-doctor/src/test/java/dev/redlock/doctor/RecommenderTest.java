package dev.redlock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The recommendation rules on hand-made measurements: each value follows from the one measurement it is about. */
class RecommenderTest {

    static NodeReport node(String name, double p999Ms, double driftPpm, double driftBoundPpm, double offsetMs) {
        Duration p999 = Duration.ofNanos((long) (p999Ms * 1e6));
        RoundTrips rt = new RoundTrips(1000, p999.dividedBy(4), p999.dividedBy(2), p999, p999, 0, 0, null);
        ClockMeasure c = new ClockMeasure(Duration.ofNanos((long) (offsetMs * 1e6)), Duration.ofNanos(50_000),
                Duration.ZERO, driftPpm, driftBoundPpm, Duration.ofSeconds(5));
        return new NodeReport(name, "redis://" + name, NodeReport.Reach.REACHABLE, null, "6.2.11",
                new NodeReport.Server("Redis 6.2.11", true), "r", "default",
                "master", "", "", List.of(), null, rt, c, List.of());
    }

    static NodeReport down(String name) {
        return new NodeReport(name, "redis://" + name, NodeReport.Reach.UNREACHABLE, "refused", null, null, null, null,
                null, null, null, List.of(), null, null, null, List.of());
    }

    static final Duration MAX_TTL = Duration.ofSeconds(30);

    @Test
    void nodeTimeoutIsTwiceTheSlowestTailRoundedUp() {
        Recommendation r = Recommender.recommend(List.of(node("a", 1.2, 0, 10, 0), node("b", 21.3, 0, 10, 0),
                node("c", 0.4, 0, 10, 0)), MAX_TTL);
        assertEquals(Duration.ofMillis(45), r.nodeTimeout());      // 2 x 21.3 = 42.6 -> 45
        assertTrue(r.reasons().get("redlock.nodeTimeout").contains("21 ms on b"), r.reasons().toString());
        Recommendation fast = Recommender.recommend(List.of(node("a", 0.3, 0, 10, 0)), MAX_TTL);
        assertEquals(Duration.ofMillis(10), fast.nodeTimeout(), "never below the floor");
    }

    @Test
    void driftFactorFollowsTheFastestClockButNeverGoesBelowTheDefault() {
        assertEquals(0.01, Recommender.recommend(List.of(node("a", 1, 1000, 30, 0)), MAX_TTL).driftFactor());
        assertEquals(0.01, Recommender.recommend(List.of(node("a", 1, -9000, 30, 0)), MAX_TTL).driftFactor(),
                "a slow clock needs no allowance");
        // 2 x 8000 + 500 = 16500 ppm -> 0.017 (rounded up to 0.001)
        Recommendation r = Recommender.recommend(List.of(node("a", 1, 8000, 30, 0), node("b", 1, 200, 30, 0)), MAX_TTL);
        assertEquals(0.017, r.driftFactor(), 1e-12);
        assertTrue(r.reasons().get("redlock.driftFactor").contains("+8000 ppm"), r.reasons().toString());
        Recommendation loose = Recommender.recommend(List.of(node("a", 40, 0, 6000, 0)), MAX_TTL);
        assertEquals(0.01, loose.driftFactor());
        assertTrue(loose.reasons().get("redlock.driftFactor").contains("a only to ± 6000 ppm"), loose.reasons().toString());
    }

    @Test
    void minTtlIsFiveNodeTimeoutsAndTheDriftAllowance() {
        Recommendation r = Recommender.recommend(List.of(node("a", 20, 0, 10, 0)), MAX_TTL);
        // nodeTimeout 40 ms; (5 x 40 + 2) / 0.99 = 204.04 -> 210 ms
        assertEquals(Duration.ofMillis(40), r.nodeTimeout());
        assertEquals(Duration.ofMillis(210), r.minTtl());
    }

    @Test
    void restartQuarantineCoversTheLongestTtlAndTheClockOffsets() {
        assertEquals(MAX_TTL, Recommender.recommend(List.of(node("a", 1, 0, 10, 3)), MAX_TTL).restartQuarantine());
        assertEquals(Duration.ofSeconds(2), Recommender.recommend(List.of(node("a", 1, 0, 10, 3)),
                Duration.ofMillis(1500)).restartQuarantine(), "rounded up to a second");
        // a node 20 s off: q >= 4 x 20 s + 100 ms (preflight's (q - margin) / 2 is then twice the offset)
        Recommendation far = Recommender.recommend(List.of(node("a", 1, 0, 10, 20_000), node("b", 1, 0, 10, 0)), MAX_TTL);
        assertEquals(Duration.ofSeconds(81), far.restartQuarantine());
        assertTrue(far.reasons().get("redlock.restartQuarantine").contains("a from this host"), far.reasons().toString());
    }

    @Test
    void quorumIsAMajorityAndTheReasonCountsWhatIsDownNow() {
        Recommendation r = Recommender.recommend(List.of(node("a", 1, 0, 10, 0), node("b", 1, 0, 10, 0),
                node("c", 1, 0, 10, 0), down("d"), node("e", 1, 0, 10, 0)), MAX_TTL);
        assertEquals(3, r.quorum());
        assertEquals(2, r.failuresTolerated());
        assertTrue(r.reasons().get("redlock.quorum").contains("1 of these nodes fail a check now, leaving 1 spare"),
                r.reasons().toString());
        Recommendation even = Recommender.recommend(List.of(node("a", 1, 0, 10, 0), node("b", 1, 0, 10, 0),
                node("c", 1, 0, 10, 0), node("d", 1, 0, 10, 0)), MAX_TTL);
        assertEquals(3, even.quorum());
        assertTrue(even.reasons().get("redlock.quorum").contains("N - 1 = 3"), even.reasons().toString());
    }

    @Test
    void nothingMeasuredNothingRecommended() {
        assertNull(Recommender.recommend(List.of(down("a"), down("b")), MAX_TTL));
    }
}
