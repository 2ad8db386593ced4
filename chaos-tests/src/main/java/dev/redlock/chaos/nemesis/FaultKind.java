package dev.redlock.chaos.nemesis;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * What kind of fault a {@link dev.redlock.chaos.history.FaultWindow} records, grouped by the fault family that injects it (Jepsen's nemesis
 * packages: network, process, clock, client). {@link #label()} is the name written to the history, the text and
 * HTML reports and accepted by {@code -Dchaos.nemesis.skip}; it is stable.
 */
public enum FaultKind {
    /** Proxies disabled: connections closed and refused. */
    CUT(Family.NETWORK, "cut"),
    /** A latency toxic on the proxies. */
    LATENCY(Family.NETWORK, "latency"),
    /** A timeout-0 toxic both ways: data dropped, connections left open. */
    BLACKHOLE(Family.NETWORK, "blackhole"),
    /** A reset_peer toxic: connections reset on their first data. */
    RESET_PEER(Family.NETWORK, "reset-peer"),
    /** kill -9, restarted on heal. */
    KILL(Family.PROCESS, "kill"),
    /** SIGSTOP, SIGCONT on heal. */
    PAUSE(Family.PROCESS, "pause"),
    /** A node failed over to its replica (the proxies re-pointed). */
    FAILOVER(Family.PROCESS, "failover"),
    /** A node's clock jumps forward. */
    CLOCK_JUMP(Family.CLOCK, "clock-jump"),
    /** A node's clock runs fast. */
    FAST_CLOCK(Family.CLOCK, "fast-clock"),
    /** A client thread stops (a GC pause). */
    CLIENT_STALL(Family.CLIENT, "client-stall"),
    /** A client's writes held in transit on their way to the resource. */
    RESOURCE_LATENCY(Family.CLIENT, "resource-latency");

    /** Where a fault is injected. */
    public enum Family { NETWORK, PROCESS, CLOCK, CLIENT }

    private final Family family;
    private final String label;

    FaultKind(Family family, String label) {
        this.family = family;
        this.label = label;
    }

    public Family family() {
        return family;
    }

    /** The name in the history and the reports ("cut", "clock-jump", ...). */
    public String label() {
        return label;
    }

    /**
     * The kind with this {@link #label()}.
     *
     * @throws NoSuchElementException naming the known labels, for an unknown one
     */
    public static FaultKind ofLabel(String label) {
        return Arrays.stream(values()).filter(k -> k.label.equals(label)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("unknown fault kind '" + label + "'; known: "
                        + Arrays.stream(values()).map(FaultKind::label).toList()));
    }

    /** The {@link #label()}, so that text built from a kind reads as before. */
    @Override
    public String toString() {
        return label;
    }
}
