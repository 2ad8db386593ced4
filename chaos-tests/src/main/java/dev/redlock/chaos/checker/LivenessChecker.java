package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Liveness measurements (not a safety property: VALID whenever there was something to measure, UNKNOWN when no
 * acquire was attempted). Metrics:
 * <ul>
 *   <li>{@code acquireAttempts}, {@code acquireOk}, {@code acquireFail}, {@code acquireInfo}: quorum rounds;</li>
 *   <li>{@code successRate}: ok / attempts;</li>
 *   <li>{@code longestNoHolderMs}: the longest stretch, inside the measured run and while at least a quorum of nodes
 *       was up (no fault window marks them unavailable), in which no client believed it held the lock;</li>
 *   <li>{@code majorityUpMs}: how long a quorum of nodes was up during the run;</li>
 *   <li>{@code meanAcquireMs}: mean time of a successful round.</li>
 * </ul>
 */
public final class LivenessChecker implements Checker {
    public static final String NAME = "liveness";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check(History h) {
        int attempts = 0, ok = 0, fail = 0, info = 0;
        long okTime = 0;
        Map<Integer, Long> pending = new LinkedHashMap<>();
        for (Event e : h.events()) {
            if (e.op() != Event.Op.ACQUIRE) continue;
            switch (e.type()) {
                case INVOKE -> {
                    attempts++;
                    pending.put(e.client(), e.nanos());
                }
                case OK -> {
                    ok++;
                    Long s = pending.remove(e.client());
                    if (s != null) okTime += e.nanos() - s;
                }
                case FAIL -> {
                    fail++;
                    pending.remove(e.client());
                }
                case INFO -> {
                    info++;
                    pending.remove(e.client());
                }
            }
        }
        long start = h.startNanos(), end = h.endNanos();
        List<long[]> up = majorityUp(h, start, end);
        List<long[]> held = new ArrayList<>();
        for (LeaseWindow w : LeaseWindow.of(h)) held.add(new long[] {w.start(), w.end()});
        long longest = 0, upTotal = 0;
        for (long[] u : up) {
            upTotal += u[1] - u[0];
            for (long[] gap : subtract(u, held)) longest = Math.max(longest, gap[1] - gap[0]);
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("acquireAttempts", (double) attempts);
        m.put("acquireOk", (double) ok);
        m.put("acquireFail", (double) fail);
        m.put("acquireInfo", (double) info);
        m.put("successRate", attempts == 0 ? 0.0 : ok / (double) attempts);
        m.put("longestNoHolderMs", longest / 1e6);
        m.put("majorityUpMs", upTotal / 1e6);
        m.put("meanAcquireMs", ok == 0 ? 0.0 : okTime / 1e6 / ok);
        return Result.of(NAME, attempts == 0 ? Validity.UNKNOWN : Validity.VALID, List.of(), m);
    }

    /** Intervals of [start, end] during which fewer than N - quorum + 1 nodes were marked unavailable. */
    static List<long[]> majorityUp(History h, long start, long end) {
        int tolerated = h.nodes() - h.quorum();
        List<long[]> points = new ArrayList<>(); // {time, +1/-1 per node}
        for (FaultWindow f : h.faults()) {
            if (!f.nodesUnavailable()) continue;
            for (int ignored : f.nodes()) {
                points.add(new long[] {f.startNanos(), 1});
                points.add(new long[] {f.endNanos(), -1});
            }
        }
        points.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
        List<long[]> out = new ArrayList<>();
        long down = 0, cursor = start;
        boolean isUp = true;
        for (long[] p : points) {
            long t = Math.max(start, Math.min(end, p[0]));
            down += p[1];
            boolean nowUp = down <= tolerated;
            if (isUp && !nowUp) {
                if (t > cursor) out.add(new long[] {cursor, t});
            } else if (!isUp && nowUp) {
                cursor = t;
            }
            isUp = nowUp;
        }
        if (isUp && end > cursor) out.add(new long[] {cursor, end});
        return out;
    }

    /** Parts of {@code span} not covered by any interval of {@code cover}. */
    static List<long[]> subtract(long[] span, List<long[]> cover) {
        List<long[]> sorted = new ArrayList<>(cover);
        sorted.sort(Comparator.comparingLong(c -> c[0]));
        List<long[]> gaps = new ArrayList<>();
        long cursor = span[0];
        for (long[] c : sorted) {
            if (c[1] <= cursor) continue;
            if (c[0] >= span[1]) break;
            if (c[0] > cursor) gaps.add(new long[] {cursor, c[0]});
            cursor = Math.max(cursor, c[1]);
        }
        if (cursor < span[1]) gaps.add(new long[] {cursor, span[1]});
        return gaps;
    }
}
