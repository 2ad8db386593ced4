package dev.redlock;

/**
 * Observes what one {@link Redlock} does, for metrics and logs: every acquisition, every request to a node, leases
 * granted, extended, released and lost, the watchdog's lateness, and leadership changes of the
 * {@link dev.redlock.election.LeaderElection}s running on it. {@code RedlockMetrics} in {@code redlock-micrometer}
 * is one. Register with {@link Redlock#addListener}; every method has an empty default, so implement only what you
 * need.
 *
 * <p><b>Threads.</b> Methods are called synchronously, on the thread where the event happens: mostly the Redlock's
 * I/O thread (node replies, decisions, fencing, timeouts, lease expiry), its scheduler thread (watchdog; expiry with
 * an adapter's transport), an election's campaign thread, or the caller's. A listener must return quickly and never
 * block or call back into the Redlock and wait: on the I/O thread it delays every lock operation of its Redlock.
 * Counters, timers and gauges of a metrics library are fine; logging at a level that is off is fine; I/O is not
 * (hand it to an executor of your own).
 * Listeners may be called concurrently from several threads and must be thread-safe. An exception a listener throws
 * is caught and logged, never passed on.
 *
 * <p><b>Cost.</b> With no listener registered, no event is built and nothing is allocated or locked. Arguments are
 * primitives, enums and strings the Redlock already holds, so a listener that allocates nothing adds no garbage.
 *
 * <p><b>Not guaranteed.</b> Events of one lease can arrive on different threads; their order across threads is not
 * guaranteed beyond what the happens-before of the library's own steps gives (a lease's grant precedes its
 * release, release or loss is reported once). Events that happen before a listener is added are not replayed.
 * Resource names are the application's: a metrics listener must not turn them into unbounded tag values.
 */
public interface RedlockListener {

    /** Which method started an acquisition. */
    enum AcquireMode {
        /** {@link Redlock#acquire}, {@link Redlock#withLock}, {@link RedlockLock#lock()} and the other waiting lock methods. */
        BLOCKING,
        /** One round: {@link Redlock#tryAcquire}, {@link RedlockLock#tryLock()}, a leader election's campaign. */
        TRY,
        /** {@link Redlock#acquireAsync}. */
        ASYNC
    }

    /** How an acquisition ended. */
    enum AcquireOutcome {
        /** A lease was returned. */
        ACQUIRED,
        /** No round reached a quorum with validity left ({@link LockUnavailableException}): held elsewhere, or nodes down. */
        UNAVAILABLE,
        /** Failed otherwise (bad state, the Redlock closed meanwhile). */
        ERROR,
        /** The caller gave up: the future was cancelled, the thread interrupted, or a lock's wait time ran out. */
        CANCELLED
    }

    /** What a request to a node was for. */
    enum Operation {
        /** The acquire script (SET NX PX with the fence read). */
        ACQUIRE,
        /** The second fencing phase (writes the token where the first round's guess lost). */
        FENCE,
        /** Re-setting the TTL of a held lease. */
        EXTEND,
        /** The token-checked delete. */
        RELEASE
    }

    /** Who asked for an extension. */
    enum ExtendTrigger {
        /** The watchdog: {@link Lease#keepAlive()}, {@link Redlock#withLock}, {@link Redlock#withLockAsync}, {@link RedlockLock}. */
        WATCHDOG,
        /** {@link Lease#extend} (a leader election's renewal is one). */
        MANUAL
    }

    /** Why a lease was lost. */
    enum LossReason {
        /** Its validity ran out without an extension (no watchdog). */
        EXPIRED,
        /** {@link Lease#extend} could not re-hold a quorum before the validity ended. */
        EXTEND_FAILED,
        /** The watchdog could not extend it before its validity ended. */
        WATCHDOG_FAILED,
        /**
         * A node of its round reported, after the grant, that it serves a client with another node list (see
         * {@link MembershipConflictException}): the lease is given up at once.
         */
        MEMBERSHIP_CONFLICT,
        /** It was auto-extended for {@link RedlockConfig#maxHold()} since its acquire: the cap ended it. */
        MAX_HOLD
    }

    /**
     * A step in progress (an acquisition, an extension, a release) that a listener asked to be told the end of, by
     * returning it from {@link #onAcquireStart}, {@link #onExtendStart} or {@link #onReleaseStart}: a tracing
     * listener opens a span at the start and closes it here. Ended exactly once, on the thread where the step ends
     * (mostly the I/O thread: must not block); an exception it throws is logged.
     */
    @FunctionalInterface
    interface Step {
        /**
         * @param outcome acquisition: {@code acquired}, {@code unavailable}, {@code error}, {@code cancelled} (the
         *                {@link AcquireOutcome}, lower case); extension: {@code extended}, {@code failed}; release:
         *                {@code released} (a quorum of nodes answered it), {@code incomplete} (fewer did within
         *                {@code nodeTimeout}: the rest keep the key until its TTL ends)
         * @param error   why an acquisition failed (the exception its caller gets), else null
         */
        void end(String outcome, Throwable error);
    }

    /**
     * An acquisition starts, on the caller's thread ({@link Redlock#acquire}, {@link Redlock#tryAcquire},
     * {@link Redlock#acquireAsync}, a lock or election method), so a tracing listener finds the caller's current
     * span there. Return a {@link Step} to be told when it ends (as {@link #onAcquire} is), or null: the default.
     */
    default Step onAcquireStart(String resource, AcquireMode mode) { return null; }

    /**
     * An extension of a held lease starts: on the caller's thread for {@link Lease#extend}, on the scheduler's for
     * the watchdog. Return a {@link Step} to be told when it ends (it includes waiting for an extension already in
     * flight), or null: the default.
     */
    default Step onExtendStart(String resource, ExtendTrigger trigger) { return null; }

    /**
     * The release of a lease starts, on the thread that called {@link Lease#release()}, {@link Lease#releaseAsync()}
     * or {@link Redlock#close()}; once per lease. Return a {@link Step} to be told when a quorum of nodes answered
     * it, or null: the default.
     */
    default Step onReleaseStart(String resource) { return null; }

    /**
     * An acquisition ended.
     *
     * @param rounds quorum rounds it ran (at least 1, except when cancelled before its first round)
     * @param nanos  from the call to the outcome
     */
    default void onAcquire(String resource, AcquireMode mode, AcquireOutcome outcome, int rounds, long nanos) {}

    /**
     * A node's answer to one request was counted (a reply that arrives after its timeout was counted is not reported
     * again).
     *
     * @param node    the node's position in {@link RedlockConfig#nodes()}
     * @param address {@code host:port} of the node ({@code host:port/db} for a database other than 0), never credentials
     * @param result  the node's vote: granted, refused (held by another owner, quarantined, not ours any more),
     *                error, or timeout (no answer within {@code nodeTimeout}; for {@code FENCE}, before the
     *                lease's validity ended)
     * @param nanos   from sending the request to the answer or the timeout
     */
    default void onNodeRequest(int node, String address, Operation operation, NodeOutcome.Kind result, long nanos) {}

    /** A lease was granted with {@code validityNanos} of validity left. */
    default void onLeaseGranted(String resource, long validityNanos) {}

    /**
     * An extension round of a held lease ended.
     *
     * @param extended      true when a quorum re-set the TTL in time
     * @param nanos         duration of the round
     * @param validityNanos the validity left after it (0 when it failed)
     */
    default void onExtend(String resource, ExtendTrigger trigger, boolean extended, long nanos, long validityNanos) {}

    /** A held lease was released (not after it was lost: a lost lease is reported by {@link #onLeaseLost} only). */
    default void onLeaseReleased(String resource) {}

    /** A held lease was lost; reported once per lease. */
    default void onLeaseLost(String resource, LossReason reason) {}

    /** The watchdog's extension of {@code resource} started {@code lateNanos} after it was due (0 or more). */
    default void onWatchdogLateness(String resource, long lateNanos) {}

    /**
     * A {@link dev.redlock.election.LeaderElection} on this Redlock became leader ({@code leader} true) or stopped
     * being leader.
     *
     * @param election the election's resource
     * @param epoch    the term's epoch
     */
    default void onLeadershipChange(String election, String instanceId, boolean leader, long epoch) {}
}
