package dev.redlock.chaos.workload;

import dev.redlock.Lease;

/**
 * A lease a workload client holds, with the harness's label for it.
 *
 * @param lease          the library's lease
 * @param owner          harness label, "c&lt;client&gt;#&lt;n&gt;"
 * @param token          fencing token
 * @param acquiredNanos  when the acquire returned
 * @param validityNanos  validity left at that moment
 */
public record Held(Lease lease, String owner, long token, long acquiredNanos, long validityNanos) {
    public long deadlineNanos() {
        return acquiredNanos + validityNanos;
    }
}
