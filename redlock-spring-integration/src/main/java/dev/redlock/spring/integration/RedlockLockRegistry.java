package dev.redlock.spring.integration;

import dev.redlock.Redlock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * A Spring Integration {@code LockRegistry} on Redlock: distributed locks over N independent Redis masters, with
 * fencing tokens, usable wherever Spring Integration takes a lock registry (aggregators, idempotent receivers,
 * {@code LockRegistryLeaderInitiator}).
 *
 * <ul>
 *   <li>{@link #obtain} returns the same {@link RedlockDistributedLock} for equal keys (String keys only, as
 *       {@code RedisLockRegistry}); key {@code k} is the Redlock resource {@code resourcePrefix + k} (default prefix
 *       {@code lock-registry:}, so the Redis key is {@code redlock:lock-registry:k}).</li>
 *   <li>A held lock is kept by the Redlock watchdog (extended every ttl/3) until the outermost unlock; {@code ttl} (the
 *       registry's, or the one passed to {@code lock(ttl)} / {@code tryLock(wait, ttl)}) is how long the nodes keep it
 *       if this process dies. So no renewal scheduler is needed: {@link #setRenewalTaskScheduler} is not overridden
 *       (the interface's no-op). {@link #renewLock(Object, Duration)} re-sets the TTL now.</li>
 *   <li>Thread ownership, re-entry and exceptions: see {@link RedlockDistributedLock}.</li>
 *   <li>{@link #expireUnusedOlderThan} forgets locks that no thread of this process holds and that were last acquired
 *       at least {@code age} ms ago (their next {@code obtain} creates a fresh instance). There is no capacity bound:
 *       call it periodically when keys are unbounded.</li>
 * </ul>
 *
 * <p><b>What it guarantees.</b> What a {@code dev.redlock.Lease} guarantees: while a lease is valid, no other holder
 * (in any process) holds the same key; fencing tokens of successive holders strictly increase. <b>What it does not.</b>
 * Exclusive actions after a pause longer than the lease; fence writes with {@link RedlockDistributedLock#fencingToken()}.
 *
 * <p>Thread-safe; plain constructors, so a container can create it. Tested by {@code RedlockLockRegistryIT} and
 * {@code LeaderInitiatorIT}.
 */
public final class RedlockLockRegistry
        implements ExpirableLockRegistry<DistributedLock>, RenewableLockRegistry<DistributedLock> {
    /** The default prefix of the Redlock resource a registry key maps to. */
    public static final String DEFAULT_RESOURCE_PREFIX = "lock-registry:";

    private final Redlock redlock;
    private final Duration ttl;
    private final String resourcePrefix;
    private final ConcurrentMap<String, RedlockDistributedLock> locks = new ConcurrentHashMap<>();

    /**
     * A registry whose locks live {@code ttl} on the nodes when not renewed (a dead holder blocks others that long).
     *
     * @throws IllegalArgumentException naming {@code ttl} when it is not a valid lease TTL for this Redlock
     */
    public RedlockLockRegistry(Redlock redlock, Duration ttl) {
        this(redlock, ttl, DEFAULT_RESOURCE_PREFIX);
    }

    /**
     * As {@link #RedlockLockRegistry(Redlock, Duration)}, with key {@code k} mapped to the resource
     * {@code resourcePrefix + k}.
     *
     * @throws IllegalArgumentException naming {@code ttl} or {@code resourcePrefix} when out of range
     */
    public RedlockLockRegistry(Redlock redlock, Duration ttl, String resourcePrefix) {
        this.redlock = Objects.requireNonNull(redlock, "redlock");
        if (resourcePrefix == null || resourcePrefix.length() > 256 || resourcePrefix.startsWith("__")
                || resourcePrefix.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("resourcePrefix must be 0..256 characters without whitespace, not "
                    + "starting with '__', got " + (resourcePrefix == null ? "null" : "'" + resourcePrefix + "'"));
        }
        try {
            redlock.newLock(resourcePrefix + "ttl-check", ttl);    // validates the TTL; makes no Redis call
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ttl of the lock registry: " + e.getMessage(), e);
        }
        this.ttl = ttl;
        this.resourcePrefix = resourcePrefix;
    }

    /**
     * The lock for {@code lockKey}, the same instance for equal keys until {@link #expireUnusedOlderThan} forgets it.
     *
     * @throws IllegalArgumentException when the key is not a String or makes a resource name Redlock rejects
     */
    @Override
    public RedlockDistributedLock obtain(Object lockKey) {
        if (!(lockKey instanceof String key)) {
            throw new IllegalArgumentException("lockKey must be a String, got "
                    + (lockKey == null ? "null" : lockKey.getClass().getName()));
        }
        return locks.computeIfAbsent(key, k -> new RedlockDistributedLock(k, redlock.newLock(resourcePrefix + k, ttl)));
    }

    @Override
    public void expireUnusedOlderThan(long age) {
        long now = System.currentTimeMillis();
        locks.values().removeIf(l -> now - l.lockedAt() >= age && !l.isAcquiredInThisProcess());
    }

    /** Re-sets the TTL of the lock the current thread holds to the registry's TTL. */
    @Override
    public void renewLock(Object lockKey) {
        renewLock(lockKey, ttl);
    }

    /**
     * Re-sets the TTL of the lock the current thread holds on {@code lockKey} (one quorum round); the watchdog goes on
     * with the new TTL.
     *
     * @throws IllegalStateException when the current thread does not hold it, or the lease was lost
     */
    @Override
    public void renewLock(Object lockKey, Duration ttl) {
        RedlockDistributedLock lock = lockKey instanceof String key ? locks.get(key) : null;
        if (lock == null || !lock.renew(ttl)) throw new IllegalStateException("Could not renew mutex at " + lockKey);
    }

    /** The TTL of {@link java.util.concurrent.locks.Lock#lock()} and the {@code tryLock} methods. */
    public Duration ttl() {
        return ttl;
    }

    @Override
    public String toString() {
        return "RedlockLockRegistry[resourcePrefix=" + resourcePrefix + ", ttl=" + ttl.toMillis() + "ms, " + redlock + "]";
    }
}
