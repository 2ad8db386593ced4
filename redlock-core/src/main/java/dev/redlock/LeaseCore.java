package dev.redlock;

import dev.redlock.internal.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every lease of a {@link Redlock} does, whatever it holds: one resource ({@link HeldLease}) or several at once
 * ({@link HeldMultiLease}). State moves HELD -> RELEASED or HELD -> LOST (-> RELEASED once the caller releases); a
 * lost lease is never revived. Validity is a deadline on the monotonic clock; an expiry timer marks the lease lost
 * when it passes (on the I/O loop when the lease was granted there, else on the shared scheduler), and the watchdog
 * (when started) extends it at a third of the TTL. Extensions are serialized so a slow one can never overwrite the
 * deadline of a later one. A subclass says which keys it holds: the extension and release it sends to the nodes, and
 * its name in listeners' events and messages.
 */
abstract class LeaseCore {
    private static final Logger log = LoggerFactory.getLogger(LeaseCore.class);

    private enum State { HELD, LOST, RELEASED }

    /** Shared by every new lease: a completed future keeps no dependents, so sharing it links nothing. */
    private static final CompletableFuture<Boolean> NO_EXTENSION = CompletableFuture.completedFuture(true);

    final RedlockContext ctx;
    private final String owner;
    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
    private final List<OnceListener> lostListeners = new CopyOnWriteArrayList<>();
    private volatile long deadline;
    private volatile Duration ttl;
    private volatile String lostReason = "";
    private volatile ScheduledFuture<?> expiryTimer;
    private volatile ScheduledFuture<?> watchdogTimer;
    private volatile boolean watchdog;
    private volatile long watchdogDue;       // when the scheduled renewal is due (ticker nanos): its lateness
    private CompletableFuture<Boolean> extensions = NO_EXTENSION;   // the last extension in flight (guarded by this)
    private CompletableFuture<Void> released;     // the first release's, returned to every caller (guarded by this)
    /** whenLost()'s source: normal on loss or Redlock.close(), CancellationException on the holder's release. */
    private final CompletableFuture<Void> lossSignal = new CompletableFuture<>();
    private final long holdStart;            // the acquire round's start (ticker nanos): maxHold counts from here
    private volatile ScheduledFuture<?> maxHoldTimer;
    private volatile boolean closedUnder;    // released by Redlock.close() while held: a loss to its holder

    LeaseCore(RedlockContext ctx, String owner, Duration ttl, long deadline) {
        this.ctx = ctx;
        this.owner = owner;
        this.ttl = ttl;
        this.deadline = deadline;
        this.holdStart = deadline - ttl.toNanos() + ctx.config().driftNanos(ttl);
    }

    /** What listeners, logs and exceptions call this lease: its resource, or its resources as {@code [a, b]}. */
    abstract String label();

    /** The API type's name for messages: {@code Lease} or {@code MultiLease}. */
    abstract String kind();

    /** The token-checked release of every key of this lease on {@code targets}, waking the waiters. */
    abstract QuorumCall releaseOn(int[] targets);

    /** The extension script, sent to every node. */
    abstract LuaScript extendScript();

    /** The extension command ({@link #extendScript()} with its keys and arguments) for a TTL of {@code newTtl}. */
    abstract Object[] extendCommand(Duration newTtl);

    /** The owner value written on the nodes (128 random bits, hex). */
    final String owner() {
        return owner;
    }

    final long deadlineNanos() {
        return deadline;
    }

    public final Duration remainingValidity() {
        if (state.get() != State.HELD) return Duration.ZERO;
        long left = deadline - ctx.ticker().nanoTime();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    public final boolean isValid() {
        return state.get() == State.HELD && deadline - ctx.ticker().nanoTime() > 0;
    }

    /** Not released and not marked lost (validity may still have run out a moment ago). */
    final boolean isHeld() {
        return state.get() == State.HELD;
    }

    final boolean isLost() {
        return closedUnder || state.get() == State.LOST || (state.get() == State.HELD && deadline - ctx.ticker().nanoTime() <= 0);
    }

    final String lostReason() {
        return lostReason.isEmpty() && isLost() ? "validity ran out" : lostReason;
    }

    public final void checkValid() {
        State s = state.get();
        if (s == State.RELEASED) throw new LeaseLostException(label(), closedUnder ? lostReason : "released");
        if (s == State.LOST) throw new LeaseLostException(label(), lostReason);
        if (deadline - ctx.ticker().nanoTime() <= 0) {
            markLost(RedlockListener.LossReason.EXPIRED, "validity ran out");
            throw new LeaseLostException(label(), "validity ran out");
        }
    }

    /** The blocking extension of the API ({@link Lease#extend}, {@link MultiLease#extend}). */
    final void extendNow(Duration ttl) {
        Duration newTtl = ctx.checkTtl(ttl);
        if (state.get() == State.RELEASED) throw new IllegalStateException("lease on '" + label() + "' was released");
        if (ctx.onIoLoop()) ctx.checkMayBlock(kind() + ".extend()", "a thread of your own");
        checkValid();
        boolean ok;
        try {
            // the round decides within a node timeout, after any extension in flight (each as bounded)
            ok = extendAsync(newTtl, RedlockListener.ExtendTrigger.MANUAL)
                    .get(4 * ctx.config().nodeTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedlockException("interrupted while extending '" + label() + "'", e);
        } catch (ExecutionException | TimeoutException e) {
            ok = false;
        }
        if (!ok) {
            markLost(RedlockListener.LossReason.EXTEND_FAILED,
                    "extension could not re-hold a quorum before the validity ended");
            throw new LeaseLostException(label(), lostReason);
        }
    }

    /**
     * One extension round, serialized after any extension in flight. True when a quorum re-set the TTL before the
     * current validity ended; the new deadline counts from this round's start. {@code trigger} is what listeners
     * are told asked for it.
     */
    final CompletableFuture<Boolean> extendAsync(Duration newTtl, RedlockListener.ExtendTrigger trigger) {
        RedlockListener.Step step = ctx.listeners().any() ? ctx.listeners().onExtendStart(label(), trigger) : null;
        CompletableFuture<Boolean> next;
        synchronized (this) {
            next = extensions.handle((x, e) -> null).thenCompose(x -> extendRound(newTtl, trigger));
            extensions = next;
        }
        if (step != null) next.whenComplete((ok, e) -> Steps.end(step, Boolean.TRUE.equals(ok) ? "extended" : "failed", e));
        return next;
    }

    private CompletableFuture<Boolean> extendRound(Duration newTtl, RedlockListener.ExtendTrigger trigger) {
        if (state.get() != State.HELD) return CompletableFuture.completedFuture(false);
        long start = ctx.ticker().nanoTime();
        LuaScript script = extendScript();
        Object[] extend = extendCommand(newTtl);
        QuorumCall call = QuorumCall.start(ctx, RedlockListener.Operation.EXTEND, ctx.allNodes(), false, start,
                n -> n.eval(script, extend), LeaseCore::ours, QuorumCall.LateGrants.IGNORE);
        return call.decision().thenApply(ok -> {
            long now = ctx.ticker().nanoTime();
            boolean extended = extended(ok, now, start, newTtl, call);
            if (ctx.listeners().any()) {
                ctx.listeners().onExtend(label(), trigger, extended, now - start, extended ? deadline - now : 0);
            }
            return extended;
        });
    }

    /** A node's answer to an extension or a release: 1 (or more keys) done, 0 none of ours there. */
    static NodeVote ours(int node, Object reply, long elapsed) {
        return ((Number) reply).longValue() > 0
                ? NodeVote.granted(node, -1, elapsed)
                : NodeVote.refused(node, "not held by this owner", elapsed);
    }

    /** Applies a decided extension round: true when it re-set the deadline (counted from the round's start). */
    private boolean extended(boolean ok, long now, long start, Duration newTtl, QuorumCall call) {
        if (!ok || now >= deadline || state.get() != State.HELD) {
            if (!ok) log.debug("extension of '{}' failed: {}", label(), QuorumRound.summary(call.snapshot()));
            return false;
        }
        long newDeadline = start + newTtl.toNanos() - ctx.config().driftNanos(newTtl);
        if (newDeadline <= now) return false;
        ttl = newTtl;
        deadline = newDeadline;
        startExpiryTimer();
        return true;
    }

    /** Arms (or re-arms) the timer that marks the lease lost when its validity ends. */
    final void startExpiryTimer() {
        ScheduledFuture<?> old = expiryTimer;
        if (old != null) old.cancel(false);
        if (state.get() != State.HELD) return;
        long delay = Math.max(0, deadline - ctx.ticker().nanoTime());
        expiryTimer = ctx.scheduleExpiry(this::onExpiryTimer, delay);
    }

    private void onExpiryTimer() {
        if (state.get() != State.HELD) return;
        if (deadline - ctx.ticker().nanoTime() <= 0) {
            if (watchdog) {
                markLost(RedlockListener.LossReason.WATCHDOG_FAILED,
                        "the watchdog could not extend the lease before its validity ended");
            } else {
                markLost(RedlockListener.LossReason.EXPIRED, "validity ran out (not extended)");
            }
        } else {
            startExpiryTimer();
        }
    }

    /**
     * Starts auto-extension every ttl/3 (once: later calls do nothing); a failed extension is retried until the
     * validity ends. With {@code maxHold} set, the lease is lost (MAX_HOLD) that long after its acquire.
     */
    final void startWatchdog() {
        synchronized (this) {
            if (watchdog) return;
            watchdog = true;
        }
        scheduleRenewal(ttl.toNanos() / 3);
        startMaxHoldTimer();
    }

    /** Arms the timer that ends an auto-extended lease {@code maxHold} after its acquire (none when maxHold is 0). */
    private void startMaxHoldTimer() {
        Duration cap = ctx.config().maxHold();
        if (cap.isZero() || state.get() != State.HELD) return;
        long delay = Math.max(0, holdStart + cap.toNanos() - ctx.ticker().nanoTime());
        ScheduledFuture<?> t = ctx.scheduler().schedule(() -> markLost(RedlockListener.LossReason.MAX_HOLD,
                "held for maxHold (" + Durations.human(cap) + "); auto-extension stopped"), delay, TimeUnit.NANOSECONDS);
        maxHoldTimer = t;
        if (state.get() != State.HELD) t.cancel(false);   // released meanwhile: cancelTimers may have missed it
    }

    private void scheduleRenewal(long delayNanos) {
        if (state.get() != State.HELD) return;
        watchdogDue = ctx.ticker().nanoTime() + delayNanos;
        watchdogTimer = ctx.scheduler().schedule(this::renew, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void renew() {
        if (state.get() != State.HELD) return;
        if (ctx.listeners().any()) {
            ctx.listeners().onWatchdogLateness(label(), Math.max(0, ctx.ticker().nanoTime() - watchdogDue));
        }
        Duration t = ttl;
        extendAsync(t, RedlockListener.ExtendTrigger.WATCHDOG).whenComplete((ok, e) -> {
            if (Boolean.TRUE.equals(ok)) {
                scheduleRenewal(t.toNanos() / 3);
                return;
            }
            long left = deadline - ctx.ticker().nanoTime();
            if (left <= 0) {
                markLost(RedlockListener.LossReason.WATCHDOG_FAILED,
                        "the watchdog could not extend the lease before its validity ended");
            } else {
                long retry = Math.max(TimeUnit.MILLISECONDS.toNanos(5), Math.min(t.toNanos() / 10, left / 2));
                scheduleRenewal(retry);
            }
        });
    }

    /** Marks the lease lost once, runs the listeners, and removes our keys wherever they remain. */
    final void markLost(RedlockListener.LossReason why, String reason) {
        if (!state.compareAndSet(State.HELD, State.LOST)) return;
        lostReason = reason;
        cancelTimers();
        ctx.live().remove(this);
        log.debug("lease on '{}' lost: {}", label(), reason);
        ctx.listeners().onLeaseLost(label(), why);
        for (OnceListener l : lostListeners) runListener(l);
        signalLoss();
        releaseOn(ctx.allNodes());
    }

    /**
     * Completes {@link #whenLost()}'s source normally on the events thread (as onLost listeners run), never on the
     * I/O or scheduler thread; inline once the Redlock is closed.
     */
    private void signalLoss() {
        try {
            ctx.events().execute(() -> lossSignal.complete(null));
        } catch (RejectedExecutionException e) {
            lossSignal.complete(null);
        }
    }

    public final CompletableFuture<Void> whenLost() {
        // one mirror per call: a caller that cancels or completes its future changes nothing for the others
        CompletableFuture<Void> mirror = new CompletableFuture<>();
        lossSignal.whenComplete((x, e) -> {
            if (e == null) mirror.complete(null);
            else mirror.completeExceptionally(e);
        });
        return mirror;
    }

    /**
     * {@link Redlock#close()}'s release: to a holder still running work this is a loss (the lock is taken away),
     * so {@link #whenLost()} completes normally, {@link #isLost()} is true and {@link #checkValid()} names the close;
     * listeners are told of a release, as before.
     */
    final CompletableFuture<Void> releaseOnClose() {
        if (state.get() == State.HELD) {
            lostReason = "the Redlock was closed";
            closedUnder = true;
            signalLoss();
        }
        return releaseAsync();
    }

    public final void onLost(Runnable listener) {
        OnceListener once = new OnceListener(Objects.requireNonNull(listener, "listener"));
        lostListeners.add(once);
        // registered while the lease was being lost: markLost may or may not have seen it; the claim decides
        if (state.get() == State.LOST) runListener(once);
    }

    /** A listener that runs at most once, whichever of markLost and onLost gets to it first. */
    private static final class OnceListener {
        final Runnable listener;
        private final AtomicBoolean claimed = new AtomicBoolean();

        OnceListener(Runnable listener) {
            this.listener = listener;
        }

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }
    }

    private void runListener(OnceListener once) {
        if (!once.claim()) return;
        Runnable l = once.listener;
        try {
            ctx.events().execute(() -> {
                try {
                    l.run();
                } catch (RuntimeException e) {
                    log.warn("onLost listener of lease '{}' threw", label(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            log.warn("onLost listener of lease '{}' not run: Redlock closed", label());
        }
    }

    public final void release() {
        if (ctx.onIoLoop()) ctx.checkMayBlock(kind() + ".release()", kind() + ".releaseAsync()");
        CompletableFuture<Void> done = releaseAsync();
        try {
            done.get(ctx.config().nodeTimeout().toMillis() * 2 + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("release of '{}' did not complete on every node", label(), e);
        }
    }

    /**
     * Starts the token-checked release on every node once; completes when a quorum answered (slow nodes get the
     * release too, and a grant of theirs that arrives later is released again). Every call returns the first
     * call's future, which only mirrors the call's: a caller that completes or cancels it changes nothing here.
     */
    public final CompletableFuture<Void> releaseAsync() {
        CompletableFuture<Void> out;
        synchronized (this) {
            if (released != null) return released;
            released = out = new CompletableFuture<>();
        }
        RedlockListener.Step step = ctx.listeners().any() ? ctx.listeners().onReleaseStart(label()) : null;
        State was = state.getAndSet(State.RELEASED);
        if (was == State.HELD) ctx.listeners().onLeaseReleased(label());
        if (was == State.HELD && !closedUnder) {
            lossSignal.completeExceptionally(new Released(label()));
        }
        cancelTimers();
        ctx.live().remove(this);
        QuorumCall call = releaseOn(ctx.allNodes());
        call.quorumAnswered().whenComplete((x, e) -> {
            if (step != null) Steps.end(step, Steps.releaseOutcome(call, ctx.config().quorum()), null);
            out.complete(null);
        });
        return out;
    }

    public final void close() {
        if (ctx.onIoLoop()) ctx.checkMayBlock(kind() + ".close()", kind() + ".releaseAsync()");
        release();
    }

    private void cancelTimers() {
        ScheduledFuture<?> e = expiryTimer;
        if (e != null) e.cancel(false);
        ScheduledFuture<?> w = watchdogTimer;
        if (w != null) w.cancel(false);
        ScheduledFuture<?> m = maxHoldTimer;
        if (m != null) m.cancel(false);
    }

    /** The state and validity left, for toString. */
    final String stateText() {
        return state.get() + ", validity=" + remainingValidity().toMillis() + "ms";
    }

    /**
     * What a released lease's {@link #whenLost()} futures complete with: made on every release, so without a stack
     * trace (the release is its cause, not a fault; a filled-in trace was several hundred bytes per release), and
     * with its message built only when read.
     */
    private static final class Released extends CancellationException {
        private final String label;

        Released(String label) {
            this.label = label;
        }

        @Override
        public String getMessage() {
            return "lease on '" + label + "' released";
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
