package dev.redlock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Percentiles and the clock's offset and rate from synthetic samples whose truth is known. */
class MeasurementsTest {

    /**
     * A node whose clock runs {@code ppm} fast and starts {@code offsetUs} ahead, probed every 5 ms for
     * {@code seconds}, each reply's two legs drawn from [base, base + jitter] us.
     */
    static List<Sample> node(double ppm, long offsetUs, int seconds, long baseLegUs, long jitterUs, long seed) {
        Random rnd = new Random(seed);
        List<Sample> out = new ArrayList<>();
        long wallStartUs = 1_800_000_000_000_000L;
        for (long t = 0; t < seconds * 1_000_000L; t += 5000) {
            long up = baseLegUs + (long) (rnd.nextDouble() * jitterUs);
            long down = baseLegUs + (long) (rnd.nextDouble() * jitterUs);
            long readAt = t + up;                                   // when the node reads its clock (host time, us)
            long nodeUs = wallStartUs + offsetUs + Math.round(readAt * (1 + ppm / 1e6));
            out.add(new Sample(t * 1000, (t + up + down) * 1000, wallStartUs + t, wallStartUs + t + up + down, nodeUs));
        }
        return out;
    }

    @Test
    void theRateIsFoundWithinItsBound() {
        for (double ppm : new double[] {0, 1000, -300, 25_000}) {
            ClockMeasure c = Measurements.clock(node(ppm, 0, 4, 50, 400, 7));
            assertTrue(c.driftKnown());
            assertTrue(Math.abs(c.driftPpm() - ppm) <= c.driftUncertaintyPpm(), ppm + " vs " + c);
            assertTrue(c.driftUncertaintyPpm() < 100, c.toString());
        }
    }

    @Test
    void aConstantOneWayDelayShiftsTheOffsetButNotTheRate() {
        // 20 ms on the way back only (a latency toxic downstream): the offset reads 10 ms low, the rate is unchanged
        ClockMeasure fast = Measurements.clock(delayedBack(node(1000, 0, 4, 50, 100, 3)));
        assertTrue(Math.abs(fast.driftPpm() - 1000) < 20, fast.toString());
        assertTrue(fast.driftUncertaintyPpm() > 5000, "the strict bound counts half of every round trip: " + fast);
        ClockMeasure same = Measurements.clock(delayedBack(node(0, 0, 4, 50, 100, 3)));
        assertTrue(Math.abs(same.offsetFromHost().toMillis() + 10) <= 1, same.toString());
        assertTrue(same.offsetFromHost().abs().compareTo(same.offsetUncertainty()) <= 0, "the offset's bound holds: " + same);
    }

    static List<Sample> delayedBack(List<Sample> samples) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            out.add(new Sample(s.sentNanos(), s.answeredNanos() + 20_000_000, s.wallBeforeUs(), s.wallAfterUs() + 20_000,
                    s.nodeUs()));
        }
        return out;
    }

    @Test
    void theOffsetIsReadFromTheFastestLateProbe() {
        ClockMeasure c = Measurements.clock(node(0, 7_000, 2, 100, 300, 1));
        assertTrue(Math.abs(c.offsetFromHost().toNanos() / 1000 - 7_000) <= c.offsetUncertainty().toNanos() / 1000, c.toString());
    }

    @Test
    void aWindowTooShortLeavesTheRateUnknown() {
        ClockMeasure c = Measurements.clock(node(1000, 0, 1, 50, 100, 1).subList(0, 60));   // 300 ms
        assertFalse(c.driftKnown());
        assertEquals(null, Measurements.clock(List.of()));
    }

    @Test
    void nodeOffsetsAreFromTheMedianOfTheNodes() {
        List<ClockMeasure> clocks = new ArrayList<>();
        for (long off : new long[] {0, 2_000, 50_000}) clocks.add(Measurements.clock(node(0, off, 2, 10, 0, 1)));
        clocks.add(null);   // an unreachable node
        List<ClockMeasure> out = Measurements.withNodeOffsets(clocks);
        assertEquals(-2, out.get(0).offsetFromNodes().toMillis());
        assertEquals(0, out.get(1).offsetFromNodes().toMillis());
        assertEquals(48, out.get(2).offsetFromNodes().toMillis());
        assertEquals(null, out.get(3));
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = new long[1000];
        for (int i = 0; i < sorted.length; i++) sorted[i] = i + 1;
        assertEquals(500, Measurements.percentile(sorted, 50));
        assertEquals(990, Measurements.percentile(sorted, 99));
        assertEquals(999, Measurements.percentile(sorted, 99.9));
        assertEquals(7, Measurements.percentile(new long[] {7}, 99.9));
        List<Sample> s = node(0, 0, 1, 100, 0, 1);
        RoundTrips rt = Measurements.roundTrips(s, 2, 1, "boom");
        assertEquals(Duration.ofNanos(200_000), rt.p50());
        assertEquals(2, rt.timeouts());
        assertEquals(0, Measurements.roundTrips(List.of(), 3, 0, null).probes());
    }
}
