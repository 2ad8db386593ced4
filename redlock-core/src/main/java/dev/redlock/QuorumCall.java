package dev.redlock;

import dev.redlock.internal.Failures;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import dev.redlock.internal.resp.RedisReplyTimeoutException;
import dev.redlock.internal.resp.RespCommand;
import io.netty.channel.EventLoop;

/**
 * One request sent to a set of nodes at once, each answer classified into a {@link NodeVote}. The call is
 * {@linkplain #decision() decided} as soon as {@code quorum} nodes granted (true) or so many did not that a quorum
 * is impossible (false): a stalled node never holds back a decided call. {@link #settled()} completes when every
 * node answered or timed out. A grant that arrives after the decision (including one that arrives after its own
 * timeout) is handed to {@link LateGrants}, so the caller can release it.
 */
final class QuorumCall implements RespCommand.Listener {

    /**
     * Told about grants that the decision did not count, and about nodes whose vote was an error or a timeout.
     * Called on an I/O thread (or the timer's); must not block.
     */
    @FunctionalInterface
    interface LateGrants {
        void granted(int node);

        /** {@code node}'s vote was an error or a timeout (once per node and call). */
        default void failed(int node) {}

        LateGrants IGNORE = node -> { };
    }

    /** Turns a node's raw script reply into a vote. */
    @FunctionalInterface
    interface Classifier {
        NodeVote classify(int node, Object reply, long elapsedNanos);
    }

    private final RedlockContext ctx;
    private final RedlockListener.Operation operation;
    private final int[] targets;
    private final QuorumRule.Tally tally;           // grants against the rule (the decision), answers (not timeouts)
    private final long startNanos;
    private final LateGrants lateGrants;
    private final String timeoutReason;             // what the call's timer says of a node that has not answered
    // close() waits for every reply when late grants matter (an acquire): completed by the last reply, also after
    // the call timed out, since a late grant is released on arrival; null for other calls
    private volatile CompletableFuture<Void> allReplied;
    private final AtomicInteger repliesLeft;
    private final NodeVote[] votes;
    private ScheduledFuture<?> timer;
    private volatile Classifier classifier;
    private final CompletableFuture<Boolean> decision = new CompletableFuture<>();
    private final CompletableFuture<Void> allIn = new CompletableFuture<>();   // settled(): the votes on demand
    private final CompletableFuture<Void> quorumAnswered = new CompletableFuture<>();
    private int answered;
    private boolean decided;

    private QuorumCall(RedlockContext ctx, RedlockListener.Operation operation, int[] targets, boolean everyAnswer,
                       long startNanos, LateGrants lateGrants, String timeoutReason) {
        this.ctx = ctx;
        this.operation = operation;
        this.targets = targets;
        this.tally = ctx.quorum().tally(targets, everyAnswer);
        this.startNanos = startNanos;
        this.lateGrants = lateGrants;
        this.timeoutReason = timeoutReason;
        this.repliesLeft = lateGrants != LateGrants.IGNORE ? new AtomicInteger(targets.length) : null;
        this.votes = new NodeVote[targets.length];
    }

    /**
     * Sends {@code send} to every target node: from the context's I/O loop when there is one (one hop for the
     * whole call; the replies, the decision and whatever it triggers run on that loop too), else from the caller.
     * One timer per call, armed at the send: at {@code nodeTimeout} every node that has not answered is a TIMEOUT.
     *
     * @param operation   what the request is for, as {@link RedlockListener#onNodeRequest} reports each vote
     * @param everyAnswer false: a true decision needs a quorum of grants ({@link RedlockContext#quorum()}); true:
     *                    the quorum is capped at the targets a group has (a release sent to fewer nodes than a
     *                    quorum: every grant counts)
     */
    static QuorumCall start(RedlockContext ctx, RedlockListener.Operation operation, int[] targets, boolean everyAnswer,
                            long startNanos, Function<NodeClient, CompletableFuture<Object>> send,
                            Classifier classifier, LateGrants lateGrants) {
        return start(ctx, operation, targets, everyAnswer, startNanos, ctx.config().nodeTimeout().toNanos(),
                NodeVote.NO_ANSWER_IN_NODE_TIMEOUT, send, classifier, lateGrants);
    }

    /**
     * As {@link #start(RedlockContext, RedlockListener.Operation, int[], boolean, long, Function, Classifier,
     * LateGrants)}, with the call's timer armed at {@code timeoutNanos} instead of the node timeout, and
     * {@code timeoutReason} as what it says of a node that has not answered by then (the fencing phase: the lease's
     * remaining validity, which bounds whatever that phase may decide anyway).
     */
    static QuorumCall start(RedlockContext ctx, RedlockListener.Operation operation, int[] targets, boolean everyAnswer,
                            long startNanos, long timeoutNanos, String timeoutReason,
                            Function<NodeClient, CompletableFuture<Object>> send, Classifier classifier,
                            LateGrants lateGrants) {
        QuorumCall call = new QuorumCall(ctx, operation, targets, everyAnswer, startNanos, lateGrants, timeoutReason);
        if (call.tally.impossible() || targets.length == 0) {
            call.decided = true;
            call.decision.complete(targets.length == 0 && call.tally.reached());
        }
        if (targets.length == 0) {
            call.quorumAnswered.complete(null);
            call.allIn.complete(null);
            return call;
        }
        EventLoop loop = ctx.ioLoop();
        if (loop == null || loop.inEventLoop()) {
            call.sendAll(send, classifier, timeoutNanos);
        } else {
            try {
                loop.execute(() -> call.sendAll(send, classifier, timeoutNanos));
            } catch (RejectedExecutionException e) {   // shutting down: send from here, the clients will refuse
                call.sendAll(send, classifier, timeoutNanos);
            }
        }
        return call;
    }

    private void sendAll(Function<NodeClient, CompletableFuture<Object>> send, Classifier classifier,
                         long timeoutNanos) {
        ScheduledFuture<?> t = ctx.scheduleOnLoop(this::timeOut, timeoutNanos);
        synchronized (this) {
            if (answered == targets.length) t.cancel(false);
            else timer = t;
        }
        this.classifier = classifier;
        if (lateGrants != LateGrants.IGNORE) {
            allReplied = new CompletableFuture<>();
            ctx.track(allReplied);
        }
        for (int slot = 0; slot < targets.length; slot++) {
            final int s = slot;
            CompletableFuture<Object> raw;
            try {
                raw = send.apply(ctx.node(targets[slot]));
            } catch (RuntimeException e) {
                raw = CompletableFuture.failedFuture(e);
            }
            // the library's transport tells us directly (no dependent future, no closure per node)
            if (raw instanceof RespCommand c) c.listen(this, s);
            else raw.whenComplete((reply, error) -> done(s, reply, error));
        }
    }

    /** A node's reply (or failure) arrived: classify it and count the vote. */
    @Override
    public void done(int slot, Object reply, Throwable error) {
        int node = targets[slot];
        long elapsed = ctx.ticker().nanoTime() - startNanos;
        NodeVote v;
        if (error != null) {
            v = isTimeout(error) ? NodeVote.timeout(node, elapsed) : NodeVote.error(node, Failures.describe(error), elapsed);
        } else {
            try {
                v = classifier.classify(node, reply, elapsed);
            } catch (RuntimeException e) {
                v = NodeVote.error(node, "unexpected reply " + reply + ": " + e.getMessage(), elapsed);
            }
        }
        vote(slot, v);
        CompletableFuture<Void> all = allReplied;
        if (all != null && repliesLeft.decrementAndGet() == 0) {
            all.complete(null);
            ctx.untrack(all);
        }
    }

    /** The call's timer: every node that has not answered by now timed out. */
    private void timeOut() {
        long elapsed = ctx.ticker().nanoTime() - startNanos;
        for (int slot = 0; slot < targets.length; slot++) {
            boolean pending;
            synchronized (this) {
                pending = votes[slot] == null;
            }
            if (pending) vote(slot, NodeVote.timeout(targets[slot], elapsed, timeoutReason));
        }
    }

    private void vote(int slot, NodeVote v) {
        boolean completeDecision = false;
        boolean decisionValue = false;
        boolean late = false;
        boolean allIn = false;
        boolean enoughAnswers = false;
        boolean counted = false;
        synchronized (this) {
            if (votes[slot] != null) {
                // already counted (it timed out); a grant arriving now is a late grant
                late = v.isGranted() && !votes[slot].isGranted();
            } else {
                votes[slot] = v;
                counted = true;
                answered++;
                allIn = answered == targets.length;
                if (allIn && timer != null) timer.cancel(false);
                if (v.kind() != NodeOutcome.Kind.TIMEOUT && !tally.answersReached()) {
                    tally.countAnswer(v.node());
                    enoughAnswers = tally.answersReached();
                }
                if (decided) {
                    late = v.isGranted();
                } else {
                    tally.count(v.node(), v.isGranted());
                    if (tally.reached()) {
                        decided = true;
                        completeDecision = true;
                        decisionValue = true;
                    } else if (tally.impossible()) {
                        decided = true;
                        completeDecision = true;
                    }
                }
            }
        }
        if (counted && ctx.listeners().any()) {
            ctx.listeners().onNodeRequest(v.node(), ctx.nodeAddress(v.node()), operation, v.kind(), v.elapsedNanos());
        }
        if (completeDecision) decision.complete(decisionValue);
        if (enoughAnswers || allIn) quorumAnswered.complete(null);
        if (counted && (v.kind() == NodeOutcome.Kind.ERROR || v.kind() == NodeOutcome.Kind.TIMEOUT)) {
            lateGrants.failed(v.node());
        }
        if (late) lateGrants.granted(v.node());
        if (allIn) {
            this.allIn.complete(null);
            ctx.untrack(this.allIn);    // tracked by a release (RedlockContext.releaseCall)
        }
    }

    /** True once a quorum granted; false once a quorum became impossible. */
    CompletableFuture<Boolean> decision() {
        return decision;
    }

    /** Completes once a quorum of nodes answered (any answer but a timeout), or all answered or timed out. */
    CompletableFuture<Void> quorumAnswered() {
        return quorumAnswered;
    }

    /** Every node's vote, once all answered or timed out. */
    CompletableFuture<List<NodeVote>> settled() {
        return allIn.thenApply(x -> snapshot());
    }

    /**
     * Completes when every node answered or timed out, as {@link #settled()} does, without a copy of the votes (for
     * work that only waits for the call). Callers must not complete it.
     */
    CompletableFuture<Void> allAnswered() {
        return allIn;
    }

    /** The votes counted so far, in target order; {@code null} entries have not answered yet. A fixed-size copy. */
    synchronized List<NodeVote> snapshot() {
        return Arrays.asList(votes.clone());
    }

    /** Node indices that granted so far (on time). */
    synchronized int[] grantedNodes() {
        int[] out = new int[votes.length];
        int n = 0;
        for (NodeVote v : votes) if (v != null && v.isGranted()) out[n++] = v.node();
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Whether {@code flags[node]} is set for every node that granted so far (on time). */
    synchronized boolean everyGrant(boolean[] flags) {
        for (NodeVote v : votes) if (v != null && v.isGranted() && !flags[v.node()]) return false;
        return true;
    }

    /** Highest fence among the grants counted so far. */
    synchronized long maxGrantedFence() {
        long max = 0;
        for (NodeVote v : votes) if (v != null && v.isGranted()) max = Math.max(max, v.fence());
        return max;
    }

    /** A reply timeout of the transport's own (the library's: a silent connection given up; an adapter's). */
    private static boolean isTimeout(Throwable e) {
        Throwable t = Failures.unwrap(e);
        return t instanceof TimeoutException || t instanceof RedisReplyTimeoutException;
    }
}
