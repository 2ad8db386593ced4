package dev.redlock.chaos.nemesis;

import java.util.EnumSet;
import java.util.Set;

/**
 * One family of faults (Jepsen's nemesis packages): {@link NetworkFaults}, {@link ProcessFaults}, {@link ClockFaults},
 * {@link ClientFaults}. Every injection returns a {@link FaultHandle} (or records its window at once, for a fault
 * that cannot be undone or lasts one call); healing is {@link FaultHandle#close()}, which leaves a
 * {@code FaultWindow} of its {@link FaultKind} in the history. A kind in {@code -Dchaos.nemesis.skip} is noted in
 * the history and not injected. What it does not promise: that a family checks the fault took effect (each family's
 * test does that).
 */
public interface FaultFamily {
    /** Which family this is. */
    FaultKind.Family family();

    /** The kinds of fault this family injects: those of {@link #family()}. */
    default Set<FaultKind> kinds() {
        Set<FaultKind> out = EnumSet.noneOf(FaultKind.class);
        for (FaultKind k : FaultKind.values()) if (k.family() == family()) out.add(k);
        return out;
    }
}
