package dev.redlock.doctor;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Settings recommended from the measurements, each with its reason. The values are a starting point computed by
 * fixed rules (docs/tuning.md); verify them under faults with the chaos suite
 * ({@code run --config}). Immutable.
 *
 * @param nodes             N, the nodes examined
 * @param quorum            grants needed (a majority)
 * @param driftFactor       never below the library's default (0.01)
 * @param fixedDrift        the library's default
 * @param nodeTimeout       from the slowest node's round-trip tail
 * @param minTtl            the shortest lease TTL worth using on these nodes
 * @param restartQuarantine at least the longest TTL the user needs ({@code --max-ttl}) and enough for the measured
 *                          clock offsets
 * @param reasons           property name ({@code redlock.nodeTimeout}, ..., {@code minTtl}) to the reason, in order
 */
public record Recommendation(int nodes, int quorum, double driftFactor, Duration fixedDrift, Duration nodeTimeout,
                             Duration minTtl, Duration restartQuarantine, Map<String, String> reasons) {
    public Recommendation {
        reasons = Collections.unmodifiableMap(new LinkedHashMap<>(reasons));
    }

    /** How many nodes may fail (be down, slow, refused) while a quorum is still reachable. */
    public int failuresTolerated() {
        return nodes - quorum;
    }
}
