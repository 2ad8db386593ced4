package dev.redlock;

import dev.redlock.internal.Failures;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link QuorumRound}s for one acquisition (of one resource or of several) until one succeeds or the rounds run
 * out. Between rounds it waits for the holder's release message ({@link ReleaseSignals}) or
 * {@code retryDelay ± retryJitter}, whichever comes first, on the shared scheduler (no thread blocks). If the caller
 * cancels the returned future, a lease that arrives anyway is released.
 */
final class QuorumAcquirer {
    private final RedlockContext ctx;

    QuorumAcquirer(RedlockContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Starts the rounds, {@code first} first. The returned future is the acquisition: cancelling it (or completing
     * it, as {@link Redlock#close()} does) stops further rounds, and a lease that a round still in flight obtains is
     * released at once.
     */
    <L extends LeaseCore> CompletableFuture<L> acquire(QuorumRound<L> first, int maxRounds, RedlockListener.AcquireMode mode) {
        String label = first.label();
        CompletableFuture<L> result;
        if (ctx.listeners().any()) {
            // what onAcquire reports travels with the future; without a listener, nothing more than before
            Acquisition<L> a = new Acquisition<>(ctx, label, mode, ctx.ticker().nanoTime());
            a.step = ctx.listeners().onAcquireStart(label, mode);
            a.whenComplete((l, e) -> report(a, e));
            result = a;
        } else {
            result = new Pending<>(ctx);
        }
        ctx.pending().put(result, label);
        round(first, 1, maxRounds, result);
        return result;
    }

    /**
     * The future an acquisition's caller gets: it leaves {@link RedlockContext#pending()} as it completes, by a
     * round, {@code cancel}, {@code close()} or the caller's {@code complete}/{@code orTimeout} (no dependent future
     * per acquisition). One that {@code obtrudeValue} or {@code completeAsync} completed leaves when its rounds
     * next find it done.
     */
    private static class Pending<L> extends CompletableFuture<L> {
        private final RedlockContext ctx;

        Pending(RedlockContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public boolean complete(L value) {
            boolean first = super.complete(value);
            ctx.pending().remove(this);
            return first;
        }

        @Override
        public boolean completeExceptionally(Throwable ex) {
            boolean first = super.completeExceptionally(ex);
            ctx.pending().remove(this);
            return first;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean first = super.cancel(mayInterruptIfRunning);
            ctx.pending().remove(this);
            return first;
        }
    }

    /** One acquisition: the future its caller gets, with what {@link RedlockListener#onAcquire} reports. */
    private static final class Acquisition<L> extends Pending<L> {
        final String resource;
        final RedlockListener.AcquireMode mode;
        final long startNanos;
        volatile int rounds;
        volatile RedlockListener.Step step;     // what a tracing listener asked to be told the end of, or null

        Acquisition(RedlockContext ctx, String resource, RedlockListener.AcquireMode mode, long startNanos) {
            super(ctx);
            this.resource = resource;
            this.mode = mode;
            this.startNanos = startNanos;
        }
    }

    private void report(Acquisition<?> a, Throwable error) {
        Throwable t = Failures.unwrap(error);
        RedlockListener.AcquireOutcome outcome = t == null ? RedlockListener.AcquireOutcome.ACQUIRED
                : t instanceof CancellationException ? RedlockListener.AcquireOutcome.CANCELLED
                : t instanceof LockUnavailableException ? RedlockListener.AcquireOutcome.UNAVAILABLE
                : RedlockListener.AcquireOutcome.ERROR;
        ctx.listeners().onAcquire(a.resource, a.mode, outcome, a.rounds, ctx.ticker().nanoTime() - a.startNanos);
        RedlockListener.Step step = a.step;
        if (step != null) Steps.end(step, outcome.name().toLowerCase(Locale.ROOT), t);
    }

    private <L extends LeaseCore> void round(QuorumRound<L> round, int n, int maxRounds, CompletableFuture<L> result) {
        if (result.isDone()) {
            ctx.pending().remove(result);
            return;
        }
        if (result instanceof Acquisition<?> a) a.rounds = n;
        CompletableFuture<L> attempt;
        try {
            attempt = round.run();
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        ctx.inFlight().add(attempt);
        attempt.whenComplete((lease, error) -> {
            try {
                settle(n, maxRounds, result, round, lease, error);
            } finally {
                ctx.inFlight().remove(attempt);   // after the lease is handed over or released (close() waits for it)
            }
        });
    }

    /** A finished round: the lease handed over, the failure passed on, or the next round (after a wake-up or the retry delay). */
    private <L extends LeaseCore> void settle(int n, int maxRounds, CompletableFuture<L> result, QuorumRound<L> round,
                                              L lease, Throwable error) {
        ctx.observeRound(ctx.ticker().nanoTime() - round.startNanos());
        if (error != null) {
            result.completeExceptionally(error);
        } else if (lease != null) {
            ctx.live().add(lease);
            lease.startExpiryTimer();
            if (!result.complete(lease)) lease.releaseAsync();   // cancelled meanwhile
        } else if (round.conflictNode() >= 0) {
            // a configuration error, not contention: no retry
            int node = round.conflictNode();
            ctx.membership().describe(ctx, node, round.conflictMembership())
                    .thenCombine(round.outcomes(), (other, outcomes) ->
                            round.membershipConflict(n, ctx.nodeAddress(node), other, outcomes))
                    .whenComplete((e, x) -> result.completeExceptionally(e != null ? e : x));
        } else if (n < maxRounds && !result.isDone()) {
            // Held by another owner on a quorum: next round when it releases (pub/sub wake-up), or after
            // retryDelay ± retryJitter. Split vote with no node failing: nobody holds it, so retry after a
            // short random pause (up to twice this round's duration) to break the tie, unless woken sooner.
            long wait = ctx.retryDelayNanos();
            if (!round.heldElsewhere() && round.splitVote()) {
                long spent = Math.max(TimeUnit.MICROSECONDS.toNanos(100), ctx.ticker().nanoTime() - round.startNanos());
                wait = Math.min(wait, ctx.seams().nextLong(2 * spent));
            }
            ctx.releases().await(round.waitResource(), round.heldOnNode(), wait, () -> {
                if (!result.isDone()) round(round.next(), n + 1, maxRounds, result);
                else ctx.pending().remove(result);
            });
        } else {
            round.outcomes().whenComplete((outcomes, e2) -> result.completeExceptionally(round.unavailable(n, outcomes)));
        }
    }
}
