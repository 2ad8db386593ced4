package dev.redlock.chaos.history;

import dev.redlock.chaos.nemesis.FaultKind;
import java.util.List;

/**
 * When a fault was active, on the harness clock.
 *
 * @param startNanos  when the fault was injected
 * @param endNanos    when it was healed
 * @param kind        what kind of fault; its {@link FaultKind#label() label} is what the reports show
 * @param description what exactly was done, human readable
 * @param nodes       node indices affected (empty for client-side faults)
 * @param clients     client indices affected (empty when every client is affected)
 * @param nodesUnavailable whether the affected nodes count as down for liveness (cut, blackhole, pause, kill)
 */
public record FaultWindow(long startNanos, long endNanos, FaultKind kind, String description, List<Integer> nodes,
                          List<Integer> clients, boolean nodesUnavailable) {

    public FaultWindow {
        nodes = List.copyOf(nodes);
        clients = List.copyOf(clients);
    }

    public long durationNanos() {
        return endNanos - startNanos;
    }

    @Override
    public String toString() {
        return kind + " [" + description + "] nodes=" + nodes + (clients.isEmpty() ? "" : " clients=" + clients)
                + " " + durationNanos() / 1_000_000 + "ms";
    }
}
