package dev.redlock.chaos.scenario;

import java.time.Duration;
import java.util.Set;

/**
 * The knobs of one scenario run. Immutable; the {@code with...} methods return changed copies.
 *
 * @param nodes             N, independent Redis masters
 * @param quorum            grants needed
 * @param driftFactor       clients' drift factor
 * @param fixedDrift        clients' fixed drift
 * @param ttl               lease TTL
 * @param nodeTimeout       clients' per-node timeout
 * @param clients           K workload clients, each with its own Redlock instance
 * @param duration          length of the random workload phase(s), where the scenario has one
 * @param rounds            repetitions of a scripted interleaving, where the scenario has one
 * @param seed              seeds every random choice of the harness (victim nodes, delays, jitter)
 * @param aof               nodes run with AOF {@code appendfsync always}
 * @param restartQuarantine amnesia guard; {@link Duration#ZERO} = off. When on, nodes are marked fresh at start
 * @param clockNode         node started under libfaketime when available (-1: none)
 * @param ownProxies        clients that get their own proxy set ("c&lt;i&gt;") instead of the shared main set
 */
public record Settings(int nodes, int quorum, double driftFactor, Duration fixedDrift, Duration ttl,
                       Duration nodeTimeout, int clients, Duration duration, int rounds, long seed, boolean aof,
                       Duration restartQuarantine, int clockNode, Set<Integer> ownProxies) {

    public Settings {
        ownProxies = Set.copyOf(ownProxies);
    }

    /**
     * 5 nodes, quorum 3, drift 1 % + 2 ms, TTL 300 ms, node timeout 250 ms (healthy nodes on a loaded 2-core machine
     * can take over 100 ms to answer), 2 clients, guard on (2 x TTL).
     */
    public static Settings defaults() {
        return new Settings(5, 3, 0.01, Duration.ofMillis(2), Duration.ofMillis(300), Duration.ofMillis(250), 2,
                Duration.ofSeconds(2), 2, 0, false, Duration.ofMillis(600), -1, Set.of());
    }

    public boolean guardOn() {
        return !restartQuarantine.isZero();
    }

    public Settings withTtl(Duration d) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, d, nodeTimeout, clients, duration, rounds, seed, aof,
                restartQuarantine.isZero() ? restartQuarantine : d.multipliedBy(2), clockNode, ownProxies);
    }

    public Settings withDrift(double factor) {
        return new Settings(nodes, quorum, factor, fixedDrift, ttl, nodeTimeout, clients, duration, rounds, seed, aof,
                restartQuarantine, clockNode, ownProxies);
    }

    public Settings withNodeTimeout(Duration d) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, d, clients, duration, rounds, seed, aof,
                restartQuarantine, clockNode, ownProxies);
    }

    public Settings withClients(int k) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, k, duration, rounds, seed, aof,
                restartQuarantine, clockNode, ownProxies);
    }

    public Settings withDuration(Duration d) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, clients, d, rounds, seed, aof,
                restartQuarantine, clockNode, ownProxies);
    }

    public Settings withRounds(int r) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, clients, duration, r, seed, aof,
                restartQuarantine, clockNode, ownProxies);
    }

    public Settings withSeed(long s) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, clients, duration, rounds, s, aof,
                restartQuarantine, clockNode, ownProxies);
    }

    public Settings withAof(boolean on) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, clients, duration, rounds, seed, on,
                restartQuarantine, clockNode, ownProxies);
    }

    public Settings withRestartQuarantine(Duration q) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, clients, duration, rounds, seed, aof,
                q, clockNode, ownProxies);
    }

    public Settings withClockNode(int n) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, clients, duration, rounds, seed, aof,
                restartQuarantine, n, ownProxies);
    }

    public Settings withOwnProxies(Set<Integer> cs) {
        return new Settings(nodes, quorum, driftFactor, fixedDrift, ttl, nodeTimeout, clients, duration, rounds, seed, aof,
                restartQuarantine, clockNode, cs);
    }

    @Override
    public String toString() {
        return "N=" + nodes + " quorum=" + quorum + " drift=" + driftFactor + "+" + fixedDrift.toMillis() + "ms ttl="
                + ttl.toMillis() + "ms nodeTimeout=" + nodeTimeout.toMillis() + "ms clients=" + clients
                + " duration=" + duration.toMillis() + "ms rounds=" + rounds + " aof=" + aof + " restartQuarantine="
                + restartQuarantine.toMillis() + "ms seed=" + seed;
    }
}
