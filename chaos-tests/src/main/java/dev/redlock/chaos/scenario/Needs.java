package dev.redlock.chaos.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a scenario needs from its cluster beyond N Redis masters, each behind one proxy of the main set. The runner
 * checks it before starting anything ({@link ScenarioRunner#whyNotRunnable}), so a scenario either runs as designed
 * or is reported SKIPPED with the reason; it never half-runs.
 *
 * @param processControl kill -9 / restart / SIGSTOP a node, or start it under libfaketime: only for nodes the harness
 *                       started itself
 * @param ownProxies     per-client proxy sets ({@link Settings#ownProxies()}): the harness must be able to create
 *                       proxies that clients can reach
 * @param spareNodes     the script is written for exactly this many nodes beyond the quorum (N - quorum), e.g.
 *                       scenario 2 cuts two nodes (still available) then a third (unavailable); -1 = any
 * @param fixed          settings the claim depends on: a tuned run ({@link Tuning}) keeps the scenario's own values
 *                       for these, and says so with {@code fixedWhy}
 * @param fixedWhy       why those values are the scenario's own (null when nothing is fixed)
 * @param keptConnections a proxy that moves its open client connections to a new upstream (the in-JVM Toxiproxy's
 *                       harness-only mode, {@code Toxiproxy#canKeepConnections})
 */
public record Needs(boolean processControl, boolean ownProxies, int spareNodes, Set<Knob> fixed, String fixedWhy,
                    boolean keptConnections) {
    /** Needs nothing beyond the main proxies. */
    public static final Needs NOTHING = new Needs(false, false, -1, Set.of(), null, false);

    public Needs {
        fixed = fixed.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(fixed));
    }

    public Needs withProcessControl() {
        return new Needs(true, ownProxies, spareNodes, fixed, fixedWhy, keptConnections);
    }

    public Needs withOwnProxies() {
        return new Needs(processControl, true, spareNodes, fixed, fixedWhy, keptConnections);
    }

    public Needs withSpareNodes(int n) {
        return new Needs(processControl, ownProxies, n, fixed, fixedWhy, keptConnections);
    }

    /** A proxy that keeps client connections while it moves them to a new upstream. */
    public Needs withKeptConnections() {
        return new Needs(processControl, ownProxies, spareNodes, fixed, fixedWhy, true);
    }

    /** The claim depends on these settings' values in the scenario's own {@link Settings}, for the reason given. */
    public Needs withFixed(String why, Knob... knobs) {
        return new Needs(processControl, ownProxies, spareNodes, Set.of(knobs), why, keptConnections);
    }

    /**
     * Why a scenario with these needs and settings cannot run on a cluster offering (or not) process control and
     * per-client proxies; empty when it can.
     */
    public List<String> unmet(Settings st, boolean canControlProcesses, boolean canCreateProxies) {
        List<String> why = new ArrayList<>();
        if (processControl && !canControlProcesses) {
            why.add("needs process control of the nodes (kill -9, restart, SIGSTOP or libfaketime), "
                    + "not available on nodes the harness did not start");
        }
        if ((ownProxies || !st.ownProxies().isEmpty()) && !canCreateProxies) {
            why.add("needs per-client proxies (clients " + st.ownProxies() + "), which cannot be created reachable "
                    + "for external nodes (only the existing proxies are published)");
        }
        if (spareNodes >= 0 && st.nodes() - st.quorum() != spareNodes) {
            why.add("needs exactly " + spareNodes + " nodes beyond the quorum (e.g. N=" + (2 * spareNodes + 1)
                    + ", quorum " + (spareNodes + 1) + "), have N=" + st.nodes() + ", quorum " + st.quorum());
        }
        return why;
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (processControl) parts.add("process control");
        if (ownProxies) parts.add("own proxies");
        if (spareNodes >= 0) parts.add("N - quorum = " + spareNodes);
        if (!fixed.isEmpty()) parts.add("its own " + fixed);
        if (keptConnections) parts.add("a proxy that keeps connections (in-JVM Toxiproxy)");
        return parts.isEmpty() ? "main proxies only" : String.join(", ", parts);
    }
}
