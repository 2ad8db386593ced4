package dev.redlock.chaos.checker;

import java.util.List;

/**
 * One thing a checker found wrong (or worth marking on a timeline).
 *
 * @param kind        stable short name: "overlap", "stale-write-accepted", "stale-write-rejected", "lost-update", ...
 * @param description what happened, with owners, tokens and times
 * @param startNanos  where it begins on the harness clock
 * @param endNanos    where it ends (== start for a point event)
 * @param clients     clients involved
 */
public record Anomaly(String kind, String description, long startNanos, long endNanos, List<Integer> clients) {
    public Anomaly {
        clients = List.copyOf(clients);
    }

    @Override
    public String toString() {
        return kind + ": " + description;
    }
}
