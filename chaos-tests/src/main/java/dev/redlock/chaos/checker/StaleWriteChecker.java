package dev.redlock.chaos.checker;

import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Stale writes, in each store's apply order. A write is stale when its token is lower than (or equal to, from
 * another owner) the highest token the store had already taken. The unfenced store takes them (anomaly
 * {@code stale-write-accepted}, INVALID); the fenced store must refuse them ({@code stale-write-rejected} is
 * reported, not an error), and taking one there is INVALID ({@code fenced-accepted-stale}). A fenced store that
 * refuses a write with a higher token than any it took is broken (INVALID, {@code fenced-rejected-fresh}).
 *
 * <p>Metrics: {@code staleAcceptedUnfenced}, {@code staleRejectedFenced}, {@code staleAcceptedFenced},
 * {@code writesUnfenced}, {@code writesFenced}.
 */
public final class StaleWriteChecker implements Checker {
    public static final String NAME = "stale-writes";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check(History h) {
        List<Anomaly> found = new ArrayList<>();
        int staleUnfenced = 0, rejectedFenced = 0, acceptedStaleFenced = 0;
        long max = -1;
        String maxOwner = "";
        List<Write> unfenced = h.writes(Write.Store.UNFENCED);
        for (Write w : unfenced) {
            if (!w.accepted()) continue;
            if (max >= 0 && (w.token() < max || (w.token() == max && !w.owner().equals(maxOwner)))) {
                staleUnfenced++;
                found.add(new Anomaly("stale-write-accepted", String.format(
                        "unfenced store took %s's write (token %d) after token %d from %s had been written",
                        w.owner(), w.token(), max, maxOwner), w.nanos(), w.nanos(), List.of(w.client())));
            }
            if (w.token() > max) {
                max = w.token();
                maxOwner = w.owner();
            }
        }
        max = -1;
        List<Write> fenced = h.writes(Write.Store.FENCED);
        for (Write w : fenced) {
            boolean stale = max >= 0 && w.token() <= max;
            if (!w.accepted()) {
                rejectedFenced++;
                if (!stale) {
                    found.add(new Anomaly("fenced-rejected-fresh", String.format(
                            "fenced store refused %s's token %d although its highest was %d", w.owner(), w.token(), max),
                            w.nanos(), w.nanos(), List.of(w.client())));
                } else {
                    found.add(new Anomaly("stale-write-rejected", String.format(
                            "fenced store refused %s's stale token %d (highest %d)", w.owner(), w.token(), max),
                            w.nanos(), w.nanos(), List.of(w.client())));
                }
                continue;
            }
            if (stale) {
                acceptedStaleFenced++;
                found.add(new Anomaly("fenced-accepted-stale", String.format(
                        "fenced store took %s's token %d although it had taken %d", w.owner(), w.token(), max),
                        w.nanos(), w.nanos(), List.of(w.client())));
            }
            max = Math.max(max, w.token());
        }
        boolean invalid = found.stream().anyMatch(a -> !a.kind().equals("stale-write-rejected"));
        return Result.of(NAME, invalid ? Validity.INVALID : Validity.VALID, found, Map.of(
                "staleAcceptedUnfenced", (double) staleUnfenced,
                "staleRejectedFenced", (double) rejectedFenced,
                "staleAcceptedFenced", (double) acceptedStaleFenced,
                "writesUnfenced", (double) unfenced.size(),
                "writesFenced", (double) fenced.size()));
    }
}
