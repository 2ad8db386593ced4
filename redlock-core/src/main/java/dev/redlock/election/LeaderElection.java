package dev.redlock.election;

import dev.redlock.Lease;
import dev.redlock.LockAttempt;
import dev.redlock.Redlock;
import dev.redlock.RedlockException;
import dev.redlock.RedlockListener;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.internal.Threads;
import dev.redlock.internal.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election over a {@link Redlock}: at most one instance at a time holds the lease on {@code resource} and is
 * leader; the others poll for it and take over when it is released or expires.
 *
 * <pre>{@code
 * LeaderElection election = LeaderElection.builder(redlock, "cron-scheduler")
 *     .instanceId("pod-a").leaseTtl(Duration.ofSeconds(15)).renewInterval(Duration.ofSeconds(5))
 *     .build();
 * election.onElected(term -> startScheduler(term.epoch()));
 * election.onRevoked(term -> stopScheduler());
 * election.start();          // returns at once; campaigns in the background
 * ...
 * election.close();          // gives leadership up at once: a follower takes over within about renewInterval
 * }</pre>
 * A runnable example with a {@code /health/leader} endpoint: {@code dev.redlock.examples.cron.CronLeaderExample} in
 * {@code redlock-examples}.
 *
 * <p><b>How it works.</b> A follower calls {@link Redlock#tryAcquire} about every {@code renewInterval}; the winner
 * becomes leader for a new {@link Term} whose epoch is the lease's {@linkplain Lease#fencingToken() fencing token},
 * and extends the lease every {@code renewInterval}. Leadership is revoked when an extension fails, when the validity
 * left falls below one node timeout (a timer, even while a renewal is stuck), or on {@link #close()}; the instance
 * then campaigns again as a follower. The README's module docs ({@code docs/modules.md}) have the timings.
 *
 * <p><b>What it guarantees.</b>
 * <ul>
 *   <li>{@link #isLeader()} is never true after the validity of the lease it stands on has ended (by this process's
 *       monotonic clock, drift allowance already subtracted): it turns false at {@code validity - margin} at the
 *       latest, whether or not the revoking thread got to run.</li>
 *   <li>Hence, under the assumptions of {@link Redlock} (bounded clock drift, nodes that lose their memory kept
 *       out by the restart quarantine), no two instances' {@code isLeader()} are true at the same time.</li>
 *   <li>Epochs strictly increase from term to term, across all instances.</li>
 *   <li>Callbacks run on one dedicated thread per election, one at a time, in order: a term's {@code onElected}
 *       always runs before its {@code onRevoked}; every term that was elected while this election ran is revoked
 *       by the time {@link #close()} has returned. A callback that throws is logged and does not stop the
 *       election.</li>
 *   <li>After a crash (the process dies without {@link #close()}), another instance becomes leader within about
 *       {@code leaseTtl + renewInterval}; after {@link #close()}, within about {@code renewInterval}.</li>
 * </ul>
 *
 * <p><b>What it does not guarantee.</b>
 * <ul>
 *   <li>A revoked leader may still be running code: a GC pause, swap or stopped VM after {@link #isLeader()}
 *       returned true lets it act after another instance was elected, and {@code onRevoked} is a notification that
 *       can run late (it waits for earlier callbacks, and for the thread to be scheduled). Use
 *       {@link #currentEpoch()} as a fencing token: send it with every write and have the target reject an epoch
 *       lower than the highest it has seen.</li>
 *   <li>Callbacks are not synchronous with the state: by the time {@code onElected} runs, the term may already be
 *       over (then {@code onRevoked} follows). Check {@link #isLeader()} / {@link #currentEpoch()} when acting.</li>
 *   <li>No fairness: any follower may win a free lease, and a revoked leader may win again (with a new epoch).</li>
 *   <li>Leadership depends on a quorum of the Redis nodes: with no quorum reachable, there is no leader.</li>
 * </ul>
 *
 * <p><b>Threads.</b> Three daemon threads per election: the campaign (its Redis calls may block for about two node
 * timeouts), the revocation timer (runs nothing else, so it fires on time) and the callbacks. Time is read on the
 * {@link Redlock}'s monotonic clock. Thread-safe, including from a callback. Each change of leadership is reported to
 * the Redlock's listeners ({@link RedlockListener#onLeadershipChange}) synchronously: a start just before
 * {@link #isLeader()} turns true, an end just after it turned false.
 */
public final class LeaderElection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);
    private static final AtomicInteger ELECTIONS = new AtomicInteger();
    private static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(15);

    private enum Phase { NEW, RUNNING, CLOSED }

    private final Redlock redlock;
    private final RedlockListener events;
    private final Ticker ticker;                     // the Redlock's: the clock its leases' validity is read on
    private final TermProbe probe;
    private final String resource;
    private final String instanceId;
    private final Duration leaseTtl;
    private final Duration renewInterval;
    private final long marginNanos;
    private final ElectionThreads threads;
    private final List<Consumer<Term>> electedListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Term>> revokedListeners = new CopyOnWriteArrayList<>();

    private final Object lock = new Object();
    private Phase phase = Phase.NEW;                 // guarded by lock
    private Leadership leadership;                   // guarded by lock
    private ScheduledFuture<?> nextTick;             // guarded by lock
    private volatile Leadership current;             // lock-free view of leadership for isLeader()
    private final CampaignFailures failures;

    private LeaderElection(Builder b, String instanceId) {
        this.redlock = b.redlock;
        this.events = RedlockInternals.listeners(b.redlock);
        this.ticker = RedlockInternals.ticker(b.redlock);
        this.probe = b.probe;
        this.resource = b.resource;
        this.instanceId = instanceId;
        this.leaseTtl = b.leaseTtl;
        this.renewInterval = b.renewInterval != null ? b.renewInterval : b.leaseTtl.dividedBy(3);
        this.marginNanos = redlock.config().nodeTimeout().toNanos();
        this.failures = new CampaignFailures(instanceId, b.resource);
        this.threads = new ElectionThreads("leader-election-" + ELECTIONS.incrementAndGet() + "-" + instanceId,
                instanceId, b.resource);
    }

    /**
     * A builder for an election on {@code resource} (the lock name, as for {@link Redlock#acquire}) over
     * {@code redlock}. The {@link Redlock} is shared, not owned: {@link #close()} does not close it.
     *
     * @throws NullPointerException when {@code redlock} is null (a bad {@code resource} is reported by
     *                              {@link Builder#build()})
     */
    public static Builder builder(Redlock redlock, String resource) {
        return new Builder(Objects.requireNonNull(redlock, "redlock"), resource);
    }

    /** The resource whose lease makes the leader. */
    public String resource() {
        return resource;
    }

    /** This instance's id, as reported in {@link Term#instanceId()}. */
    public String instanceId() {
        return instanceId;
    }

    /** TTL of the lease, set again on every renewal. */
    public Duration leaseTtl() {
        return leaseTtl;
    }

    /** How often the leader renews and a follower polls. */
    public Duration renewInterval() {
        return renewInterval;
    }

    /**
     * Starts campaigning in the background and returns at once. Calling it again is a no-op.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public void start() {
        synchronized (lock) {
            if (phase == Phase.CLOSED) throw new IllegalStateException("election '" + resource + "' is closed");
            if (phase == Phase.RUNNING) return;
            phase = Phase.RUNNING;
            scheduleTickLocked(0);
        }
        log.debug("{}: campaigning for '{}' (leaseTtl={}ms, renewInterval={}ms)", instanceId, resource,
                leaseTtl.toMillis(), renewInterval.toMillis());
    }

    /**
     * True while this instance is leader: it holds the lease, and the lease's validity minus the safety margin has
     * not run out. Never true after the lease's validity ended. A snapshot: it can turn false right after it
     * returned true, so fence what you do with {@link #currentEpoch()}.
     */
    public boolean isLeader() {
        return leading(current);
    }

    /** Held, before the revocation deadline, and the lease not released behind our back (its Redlock closed). */
    private boolean leading(Leadership l) {
        return l != null && ticker.nanoTime() - l.revokeAt < 0 && l.lease.isValid();
    }

    /**
     * The epoch of the current term while this instance {@linkplain #isLeader() is leader}; empty otherwise. The
     * epoch is the fencing token of the term's lease ({@link Lease#fencingToken()}): strictly greater than every
     * earlier term's epoch on this resource, whichever instance held it. Use it as the fencing token of the
     * leader's writes.
     */
    public OptionalLong currentEpoch() {
        Leadership l = current;
        return leading(l) ? OptionalLong.of(l.term.epoch()) : OptionalLong.empty();
    }

    /**
     * Why the last campaign round did not win: a {@link dev.redlock.LockUnavailableException} with every node's
     * outcome (held by the leader, nodes down, quarantined, a {@link dev.redlock.MembershipConflictException}...),
     * or another {@link RedlockException}; empty once a round won, and before the first round. Rounds that fail for a
     * reason other than a held lease are also logged at WARN, at most once a minute.
     */
    public Optional<RedlockException> lastFailure() {
        return failures.last();
    }

    /**
     * Registers a callback for the start of each term won by this instance. Runs on the election's callback
     * thread, in order with {@link #onRevoked} callbacks; exceptions are logged. Register before {@link #start()}
     * to see every term; a callback registered later sees only the events dispatched after it.
     */
    public void onElected(Consumer<Term> callback) {
        electedListeners.add(Objects.requireNonNull(callback, "callback"));
    }

    /**
     * Registers a callback for the end of each term of this instance (renewal failed, validity about to run out,
     * or {@link #close()}). Runs on the election's callback thread, after the term's {@link #onElected}
     * callbacks; exceptions are logged. By the time it runs, {@link #isLeader()} is already false and another
     * instance may already be leader.
     */
    public void onRevoked(Consumer<Term> callback) {
        revokedListeners.add(Objects.requireNonNull(callback, "callback"));
    }

    /**
     * Stops campaigning and, if leader, gives leadership up at once: {@link #isLeader()} turns false, then the
     * lease is released (token-checked) so a follower can take over without waiting for the TTL. Waits for a
     * campaign round in flight, and up to 5 s for pending callbacks (including {@code onRevoked}) to run, unless
     * called from a callback. Idempotent. Does not close the {@link Redlock}; close the election first (closing
     * the Redlock first releases the lease: {@code isLeader()} turns false at once, {@code onRevoked} follows at
     * the next renewal).
     */
    @Override
    public void close() {
        RedlockInternals.checkMayBlock(redlock, "LeaderElection.close()", "a thread of your own");
        Leadership l;
        synchronized (lock) {
            if (phase == Phase.CLOSED) return;
            phase = Phase.CLOSED;
            if (nextTick != null) nextTick.cancel(false);
            l = leadership;
        }
        if (l != null) revoke(l, "closed", true);
        threads.shutdown(4 * marginNanos + TimeUnit.SECONDS.toNanos(1));
        log.debug("{}: election for '{}' closed", instanceId, resource);
    }

    @Override
    public String toString() {
        Leadership l = current;
        return "LeaderElection[" + resource + ", " + instanceId + ", "
                + (isLeader() && l != null ? "leader, epoch=" + l.term.epoch() : "follower") + "]";
    }

    // ---------------------------------------------------------------- campaign

    private void scheduleTickLocked(long delayNanos) {
        if (phase != Phase.RUNNING) return;
        try {
            nextTick = threads.campaign.schedule(this::tick, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    /** One campaign step; exactly one is scheduled or running while the election runs. */
    private void tick() {
        long next = pollDelay();
        try {
            Leadership l;
            synchronized (lock) {
                if (phase != Phase.RUNNING) return;
                l = leadership;
            }
            next = l == null ? campaignRound() : renew(l);
        } catch (RuntimeException e) {
            log.warn("{}: unexpected failure in the election for '{}'", instanceId, resource, e);
        } finally {
            synchronized (lock) {
                scheduleTickLocked(next);
            }
        }
    }

    /** Tries to win the lease once; returns the delay to the next tick. */
    private long campaignRound() {
        LockAttempt attempt;
        try {
            attempt = redlock.attempt(resource, leaseTtl);
        } catch (RedlockException e) {
            failures.failed(e, ticker.nanoTime());
            return pollDelay();
        } catch (RuntimeException e) {
            failures.failed(new RedlockException("campaign round failed: " + e, e), ticker.nanoTime());
            return pollDelay();
        }
        Optional<Lease> won = attempt.lease();
        if (won.isEmpty()) {
            failures.failed(attempt.failure().orElseThrow(), ticker.nanoTime());
            return pollDelay();
        }
        failures.won();
        Lease lease = won.get();
        long now = ticker.nanoTime();
        long deadline = now + lease.remainingValidity().toNanos();   // read the clock first: never later than the lease's
        long revokeAt = deadline - marginNanos;
        boolean release;
        Leadership l = null;
        synchronized (lock) {
            release = phase != Phase.RUNNING || revokeAt - ticker.nanoTime() <= 0;
            if (!release) {
                Term term = new Term(resource, instanceId, lease.fencingToken(), Instant.now());
                l = new Leadership(term, lease, revokeAt);
                probe.held(term, ticker.nanoTime(), revokeAt, deadline);   // before isLeader() turns true
                events.onLeadershipChange(resource, instanceId, true, term.epoch());   // before isLeader() turns true
                leadership = l;
                current = l;
                threads.dispatch(electedListeners, term, "onElected");
                armRevokeTimerLocked(l);
            }
        }
        if (release) {
            log.debug("{}: won '{}' but {}: releasing it", instanceId, resource,
                    revokeAt - ticker.nanoTime() <= 0 ? "its validity left is below the margin" : "the election closed");
            lease.release();
            return pollDelay();
        }
        log.info("{}: elected leader of '{}', epoch {}", instanceId, resource, l.term.epoch());
        Leadership held = l;
        lease.onLost(() -> revoke(held, "lease lost", false));
        return renewDelay(l);
    }

    /** Extends the lease of a held term; returns the delay to the next tick. */
    private long renew(Leadership l) {
        if (ticker.nanoTime() - l.revokeAt >= 0) {
            revoke(l, "validity ran out before the lease could be renewed", true);
            return pollDelay();
        }
        try {
            l.lease.extend(leaseTtl);
        } catch (RuntimeException e) {
            revoke(l, "renewal failed: " + e.getMessage(), true);
            return pollDelay();
        }
        long now = ticker.nanoTime();
        long deadline = now + l.lease.remainingValidity().toNanos();
        boolean late;
        synchronized (lock) {
            if (l.ended) return pollDelay();
            late = now - l.revokeAt >= 0 || deadline - marginNanos - ticker.nanoTime() <= 0;
            if (!late) {
                l.revokeAt = deadline - marginNanos;
                probe.held(l.term, now, l.revokeAt, deadline);
                armRevokeTimerLocked(l);
            }
        }
        if (late) {
            revoke(l, "renewal completed too late", true);
            return pollDelay();
        }
        return renewDelay(l);
    }

    /** Next renewal: after renewInterval, or earlier so that one more attempt (one node timeout) ends before revokeAt. */
    private long renewDelay(Leadership l) {
        long untilLast = l.revokeAt - ticker.nanoTime() - marginNanos;
        return Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(renewInterval.toNanos(), untilLast));
    }

    /** A follower's wait between rounds: 80..100% of renewInterval, so followers do not poll in lockstep. */
    private long pollDelay() {
        long r = renewInterval.toNanos();
        return r - ThreadLocalRandom.current().nextLong(r / 5 + 1);
    }

    // ---------------------------------------------------------------- revocation

    private void armRevokeTimerLocked(Leadership l) {
        if (l.revokeTimer != null) l.revokeTimer.cancel(false);
        try {
            l.revokeTimer = threads.timer.schedule(() -> onRevokeTimer(l), l.revokeAt - ticker.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closing: close() revokes
        }
    }

    private void onRevokeTimer(Leadership l) {
        synchronized (lock) {
            if (l.ended) return;
            if (ticker.nanoTime() - l.revokeAt < 0) {      // renewed meanwhile
                armRevokeTimerLocked(l);
                return;
            }
        }
        revoke(l, "validity would run out before a renewal got through", true);
    }

    /**
     * Ends the term once (isLeader turns false, onRevoked is queued), then releases its lease (token-checked), on
     * this thread when {@code releaseHere}, else on the campaign thread. Idempotent.
     */
    private void revoke(Leadership l, String reason, boolean releaseHere) {
        synchronized (lock) {
            if (l.ended) return;
            endLocked(l);
            threads.dispatch(revokedListeners, l.term, "onRevoked");
        }
        log.info("{}: revoked as leader of '{}', epoch {}: {}", instanceId, resource, l.term.epoch(), reason);
        if (!releaseHere) {
            try {
                threads.campaign.execute(l.lease::release);
                return;
            } catch (RejectedExecutionException e) {
                // closing: release here
            }
        }
        l.lease.release();
    }

    private void endLocked(Leadership l) {
        l.ended = true;
        if (l.revokeTimer != null) l.revokeTimer.cancel(false);
        if (leadership == l) leadership = null;
        if (current == l) current = null;
        probe.ended(l.term, Math.min(ticker.nanoTime(), l.revokeAt));                      // after the flip
        events.onLeadershipChange(resource, instanceId, false, l.term.epoch());          // after it turned false
    }

    /**
     * Mutable, reusable builder; {@link #build()} validates and returns a new, not yet started election. Not
     * thread-safe.
     */
    public static final class Builder {
        private final Redlock redlock;
        private final String resource;
        private String instanceId;
        private Duration leaseTtl = DEFAULT_LEASE_TTL;
        private Duration renewInterval;
        private TermProbe probe = TermProbe.NONE;

        private Builder(Redlock redlock, String resource) {
            this.redlock = redlock;
            this.resource = resource;
        }

        /** This instance's id, reported in {@link Term}s and logs; default: host name + random suffix. 1..256 characters. */
        public Builder instanceId(String instanceId) {
            this.instanceId = instanceId;
            return this;
        }

        /**
         * TTL of the leader's lease; default 15 s. A crashed leader is replaced after about
         * {@code leaseTtl + renewInterval}. Must be at least three node timeouts plus the drift allowance (one round
         * to acquire, one to write the fencing token, one as the revocation margin), and at most the Redlock's
         * {@code restartQuarantine} when that is on.
         */
        public Builder leaseTtl(Duration leaseTtl) {
            this.leaseTtl = leaseTtl;
            return this;
        }

        /**
         * How often the leader renews its lease and a follower polls for it; default {@code leaseTtl / 3}. Must be
         * in (0, leaseTtl). Followers notice a free lease within about one interval.
         */
        public Builder renewInterval(Duration renewInterval) {
            this.renewInterval = renewInterval;
            return this;
        }

        /** Seam for tests: where the election reports its terms; default none. */
        Builder probe(TermProbe probe) {
            this.probe = Objects.requireNonNull(probe, "probe");
            return this;
        }

        /**
         * Validates and builds. Nothing runs until {@link LeaderElection#start()}.
         *
         * @throws IllegalArgumentException naming the field, its value and the allowed range: {@code resource},
         *                                  {@code instanceId}, {@code leaseTtl}, {@code renewInterval}, or
         *                                  {@code redlock} when its config has fencing off (the epoch is the
         *                                  fencing token)
         */
        public LeaderElection build() {
            ElectionChecks.check(redlock, resource, instanceId, leaseTtl, renewInterval);
            return new LeaderElection(this, instanceId != null ? instanceId : InstanceIds.forThisHost());
        }
    }
}
