package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.History;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Fencing tokens of successive holders strictly increase: when one lease's believed-held window ended before
 * another's began, the later lease's token must be greater ({@code token-not-increasing} otherwise). It needs no
 * write to happen: a repeated token is found even when the store never sees the two writes. Leases whose windows
 * overlap are the mutual-exclusion checker's business and are not compared here; leases without a token are skipped.
 * Metric: {@code tokenInversions}.
 */
public final class TokenOrderChecker implements Checker {
    public static final String NAME = "token-order";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check(History h) {
        List<LeaseWindow> ws = new ArrayList<>(LeaseWindow.of(h));
        ws.removeIf(w -> w.token() < 0);
        ws.sort(Comparator.comparingLong(LeaseWindow::start));
        List<Anomaly> found = new ArrayList<>();
        for (int j = 0; j < ws.size(); j++) {
            LeaseWindow later = ws.get(j);
            LeaseWindow worst = null;
            for (int i = 0; i < j; i++) {
                LeaseWindow earlier = ws.get(i);
                if (earlier.end() > later.start() || earlier.owner().equals(later.owner())) continue;
                if (earlier.token() >= later.token() && (worst == null || earlier.token() > worst.token())) worst = earlier;
            }
            if (worst != null) {
                found.add(new Anomaly("token-not-increasing", String.format(
                        "%s (client %d) got token %d after %s (client %d) had held token %d", later.owner(),
                        later.client(), later.token(), worst.owner(), worst.client(), worst.token()),
                        later.start(), later.start(), List.of(worst.client(), later.client())));
            }
        }
        return Result.of(NAME, found.isEmpty() ? Validity.VALID : Validity.INVALID, found,
                Map.of("tokenInversions", (double) found.size()));
    }
}
