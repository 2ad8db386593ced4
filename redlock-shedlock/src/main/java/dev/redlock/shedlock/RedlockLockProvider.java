package dev.redlock.shedlock;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link ExtensibleLockProvider} on Redlock: a {@code @SchedulerLock} job runs on one instance at a time,
 * decided by a quorum of independent Redis masters, and the run can fence its writes with
 * {@link #currentFencingToken()}.
 *
 * <ul>
 *   <li><b>Names.</b> ShedLock lock {@code name} is the Redlock resource {@code resourcePrefix + name} (default prefix
 *       {@code shedlock:}), so its Redis key is {@code <keyPrefix>shedlock:<name>}, e.g. {@code redlock:shedlock:report}.
 *       The resource must fit Redlock's 1..1024 characters. Instances that must exclude each other need the same
 *       prefixes; ShedLock's own Redis providers use other keys ({@code job-lock:<env>:<name>}), so do not mix them
 *       for one job.</li>
 *   <li><b>{@code lockAtMostFor}</b> is the lease TTL: one quorum round ({@link Redlock#tryAcquire}), no waiting, no
 *       watchdog. It must be a valid Redlock TTL: above the drift allowance, and with the amnesia guard on at most
 *       {@code restartQuarantine} (raise it to your longest {@code lockAtMostFor}); otherwise {@link #lock} throws an
 *       {@link IllegalArgumentException} naming {@code lockAtMostFor} and the lock.</li>
 *   <li><b>{@code lockAtLeastFor}</b> is honoured on unlock: while {@code lockAtLeastUntil} is ahead, the key is not
 *       deleted but its TTL is re-set (token-checked, like every extend) to end then, and this process releases it
 *       at that time; a lease lost meanwhile is simply gone. Closing the {@link Redlock} releases such kept locks at
 *       once.</li>
 *   <li><b>{@code extend}</b> re-sets the TTL of the same lease to the new {@code lockAtMostFor} (a quorum round that
 *       must finish before the current validity ends) and returns a new lock; the old one is invalid (ShedLock throws
 *       {@link IllegalStateException} on its use). Empty when the lease was already lost or the round failed.</li>
 *   <li><b>Fencing.</b> The returned locks are {@link RedlockSimpleLock}s with
 *       {@link RedlockSimpleLock#fencingToken()}; inside a {@code @SchedulerLock} method, where the lock object is not
 *       visible, {@link #currentFencingToken()} gives the token of the innermost lock this thread holds.</li>
 * </ul>
 *
 * <p><b>What it guarantees.</b> What a {@link Lease} guarantees: while a run's lease is valid, no other instance
 * holds the same job; tokens of successive runs strictly increase. <b>What it does not.</b> Exactly-once execution:
 * a run that outlasts {@code lockAtMostFor} (or pauses past it) can overlap the next one, and a tick on which no
 * quorum answers is skipped. Fence the job's writes with the token.
 *
 * <p>Thread-safe; plain constructors, so a container can create it. Tested by {@code RedlockLockProviderIT}
 * (ShedLock's own contract tests) and {@code SchedulerLockIT} (three Spring contexts, one run per tick).
 */
public final class RedlockLockProvider implements ExtensibleLockProvider {
    /** The default prefix of the Redlock resource a ShedLock name maps to. */
    public static final String DEFAULT_RESOURCE_PREFIX = "shedlock:";

    private static final ThreadLocal<Deque<RedlockSimpleLock.Run>> RUNS = new ThreadLocal<>();

    private final Redlock redlock;
    private final String resourcePrefix;

    /** A provider mapping lock {@code name} to the resource {@code shedlock:name}. */
    public RedlockLockProvider(Redlock redlock) {
        this(redlock, DEFAULT_RESOURCE_PREFIX);
    }

    /**
     * A provider mapping lock {@code name} to the resource {@code resourcePrefix + name}.
     *
     * @param resourcePrefix 0..256 characters, no whitespace, not starting with {@code __}
     * @throws IllegalArgumentException naming {@code resourcePrefix} when it breaks these rules
     */
    public RedlockLockProvider(Redlock redlock, String resourcePrefix) {
        this.redlock = Objects.requireNonNull(redlock, "redlock");
        if (resourcePrefix == null || resourcePrefix.length() > 256 || resourcePrefix.startsWith("__")
                || resourcePrefix.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("resourcePrefix must be 0..256 characters without whitespace, not "
                    + "starting with '__', got " + (resourcePrefix == null ? "null" : "'" + resourcePrefix + "'"));
        }
        this.resourcePrefix = resourcePrefix;
    }

    /**
     * One quorum round for the job's lease; empty when another instance holds it or no quorum answered in time.
     *
     * @throws IllegalArgumentException naming {@code lockAtMostFor} when it is not a valid lease TTL, or naming the
     *                                  lock when its resource name is too long
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration config) {
        String resource = resourcePrefix + config.getName();
        Optional<Lease> lease;
        try {
            lease = redlock.tryAcquire(resource, config.getLockAtMostFor());
        } catch (IllegalArgumentException e) {
            String field = e.getMessage() != null && e.getMessage().startsWith("resource") ? "the lock name" : "lockAtMostFor";
            throw new IllegalArgumentException(field + " of ShedLock lock '" + config.getName() + "' cannot be used "
                    + "for a Redlock lease: " + e.getMessage(), e);
        }
        if (lease.isEmpty()) return Optional.empty();
        RedlockSimpleLock.Run run = new RedlockSimpleLock.Run(lease.get(), redlock.config());
        Deque<RedlockSimpleLock.Run> runs = RUNS.get();
        if (runs == null) RUNS.set(runs = new ArrayDeque<>());
        runs.addLast(run);
        return Optional.of(new RedlockSimpleLock(run, config));
    }

    /**
     * The fencing token of the innermost lock this thread took through a {@code RedlockLockProvider} and has not
     * unlocked yet (an extended lock keeps its token); empty when there is none. Meant for the body of a
     * {@code @SchedulerLock} method: pass it with every write the job makes.
     */
    public static OptionalLong currentFencingToken() {
        Deque<RedlockSimpleLock.Run> runs = RUNS.get();
        if (runs == null) return OptionalLong.empty();
        while (!runs.isEmpty() && runs.peekLast().isEnded()) runs.removeLast();
        if (runs.isEmpty()) {
            RUNS.remove();
            return OptionalLong.empty();
        }
        return OptionalLong.of(runs.peekLast().lease().fencingToken());
    }

    @Override
    public String toString() {
        return "RedlockLockProvider[resourcePrefix=" + resourcePrefix + ", " + redlock + "]";
    }
}
