package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Lost updates in the unfenced store's read-modify-write counter. Every operation reads the counter and writes
 * read + 1, so without lost updates the counter ends at {@code initial + accepted writes}. {@code lostUpdates} is the
 * shortfall, {@code accepted - (final - initial)}; each write applied over a value other than the one it read is an
 * anomaly ({@code lost-update}). The checker also verifies that the writes chain (each one's value-before is the
 * previous one's new value); a broken chain means the history is incomplete and the result is UNKNOWN.
 *
 * <p>Metrics: {@code lostUpdates}, {@code finalValue}, {@code acceptedWrites}.
 */
public final class LostUpdateChecker implements Checker {
    public static final String NAME = "lost-updates";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check(History h) {
        List<Write> ws = h.writes(Write.Store.UNFENCED).stream().filter(Write::accepted).toList();
        List<Anomaly> found = new ArrayList<>();
        boolean chained = true;
        for (int i = 0; i < ws.size(); i++) {
            Write w = ws.get(i);
            if (i > 0 && w.valueBefore() != ws.get(i - 1).newValue()) chained = false;
            if (w.valueBefore() > w.readValue()) {
                found.add(new Anomaly("lost-update", String.format(
                        "%s (token %d) read %d but wrote %d over %d: overwrote %d increment(s)",
                        w.owner(), w.token(), w.readValue(), w.newValue(), w.valueBefore(),
                        w.valueBefore() - w.readValue()), w.invokeNanos(), w.nanos(), List.of(w.client())));
            }
        }
        long initial = ws.isEmpty() ? 0 : ws.get(0).valueBefore();
        long fin = ws.isEmpty() ? 0 : ws.get(ws.size() - 1).newValue();
        long lost = ws.size() - (fin - initial);
        Validity v = lost > 0 || !found.isEmpty() ? Validity.INVALID : Validity.VALID;
        if (!chained) {
            found.add(new Anomaly("history-inconsistent",
                    "unfenced writes do not chain (a write is missing from the history)", 0, 0, List.of()));
            if (v == Validity.VALID) v = Validity.UNKNOWN;
        }
        return Result.of(NAME, v, found, Map.of("lostUpdates", (double) lost, "finalValue", (double) fin,
                "acceptedWrites", (double) ws.size()));
    }
}
