package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.History;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Mutual exclusion: no two leases (of different owners) have overlapping believed-held windows
 * {@code [acquired, min(acquired + validity, lost, release invoked)]}. Back-to-back leases (one ends exactly where
 * the next begins) do not overlap. Metric: {@code overlaps}.
 */
public final class MutualExclusionChecker implements Checker {
    public static final String NAME = "mutual-exclusion";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check(History h) {
        List<LeaseWindow> ws = new ArrayList<>(LeaseWindow.of(h));
        ws.sort(Comparator.comparingLong(LeaseWindow::start));
        List<Anomaly> found = new ArrayList<>();
        for (int i = 0; i < ws.size(); i++) {
            LeaseWindow a = ws.get(i);
            for (int j = i + 1; j < ws.size() && ws.get(j).start() < a.end(); j++) {
                LeaseWindow b = ws.get(j);
                if (a.owner().equals(b.owner()) || !a.overlaps(b)) continue;
                long from = Math.max(a.start(), b.start());
                long to = Math.min(a.end(), b.end());
                found.add(new Anomaly("overlap", String.format(
                        "%s (client %d, token %d) and %s (client %d, token %d) both believed they held the lock for %.1f ms",
                        a.owner(), a.client(), a.token(), b.owner(), b.client(), b.token(), (to - from) / 1e6),
                        from, to, List.of(a.client(), b.client())));
            }
        }
        return Result.of(NAME, found.isEmpty() ? Validity.VALID : Validity.INVALID, found,
                Map.of("leases", (double) ws.size(), "overlaps", (double) found.size()));
    }
}
