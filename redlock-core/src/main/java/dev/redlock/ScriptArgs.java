package dev.redlock;

/**
 * The ACQUIRE arguments that depend only on the lease's TTL and the quarantine asked for, as the script's decimal
 * strings: the TTL, the quarantine and the membership window ({@link Membership#windowMs}). An instance keeps the last
 * one made ({@link RedlockContext#scriptArgs}), so repeated acquires with the same TTL build none of them again.
 */
record ScriptArgs(long ttlMs, long quarantineMs, String ttl, String quarantine, String window) {
    static ScriptArgs of(long ttlMs, long quarantineMs) {
        return new ScriptArgs(ttlMs, quarantineMs, Long.toString(ttlMs), Long.toString(quarantineMs),
                Long.toString(Membership.windowMs(ttlMs, quarantineMs)));
    }

    boolean isFor(long ttlMs, long quarantineMs) {
        return this.ttlMs == ttlMs && this.quarantineMs == quarantineMs;
    }
}
