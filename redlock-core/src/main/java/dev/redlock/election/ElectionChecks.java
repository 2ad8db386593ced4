package dev.redlock.election;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.internal.Durations;
import dev.redlock.internal.Resources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** What {@link LeaderElection.Builder#build()} checks: each failure names its field, value and allowed range. */
final class ElectionChecks {
    private ElectionChecks() {
    }

    static void check(Redlock redlock, String resource, String instanceId, Duration leaseTtl, Duration renewInterval) {
        Resources.check(resource);
        if (instanceId != null && (instanceId.isBlank() || instanceId.length() > 256)) {
            throw new IllegalArgumentException("instanceId must be 1..256 characters, not blank, got '" + instanceId + "'");
        }
        RedlockConfig cfg = redlock.config();
        if (!cfg.fencing()) {
            throw new IllegalArgumentException("redlock must have fencing on (RedlockConfig.fencing(true)): the "
                    + "election's epoch is the lease's fencing token, got fencing=false");
        }
        Duration min = minLeaseTtl(cfg);
        Duration max = cfg.restartQuarantine().isZero() ? Duration.ofHours(24) : cfg.restartQuarantine();
        if (leaseTtl == null || leaseTtl.compareTo(min) < 0 || leaseTtl.compareTo(max) > 0) {
            throw new IllegalArgumentException("leaseTtl must be in [" + Durations.human(min) + ", " + Durations.human(max)
                    + "] (at least 3 x nodeTimeout plus the drift allowance; at most "
                    + (cfg.restartQuarantine().isZero() ? "24h" : "restartQuarantine") + "), got "
                    + (leaseTtl == null ? "null" : Durations.human(leaseTtl)));
        }
        if (renewInterval != null && (renewInterval.isNegative() || renewInterval.isZero()
                || renewInterval.compareTo(leaseTtl) >= 0)) {
            throw new IllegalArgumentException("renewInterval must be in (0, leaseTtl=" + Durations.human(leaseTtl)
                    + "), got " + Durations.human(renewInterval));
        }
    }

    /** Smallest TTL whose validity ({@code ttl*(1-driftFactor) - fixedDrift}) covers three node timeouts. */
    static Duration minLeaseTtl(RedlockConfig cfg) {
        double need = 3.0 * cfg.nodeTimeout().toNanos() + cfg.fixedDrift().toNanos();
        long nanos = (long) Math.ceil(need / (1.0 - cfg.driftFactor()));
        return Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(nanos) + (nanos % 1_000_000 == 0 ? 0 : 1));
    }
}
