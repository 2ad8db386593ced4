package dev.redlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When preflight checks run for one {@link Redlock} and what their findings do ({@link Preflight}). At creation
 * every node is checked ({@link #atCreate}). Afterwards a node is checked again before its next ACQUIRE once it is
 * <em>suspect</em>: it was not reachable then, a vote of it was an error or a timeout (it may have been restarted
 * or replaced meanwhile), or the memory age it reported went down (its memory changed identity). A node never
 * checked is checked before its vote; a node that passed before is re-checked beside its next vote (a slow check
 * must not cost the vote; a restarted node is quarantined meanwhile anyway). In
 * {@link Preflight#STRICT} mode a node whose check refuses it votes {@code ERROR} with the finding's text. A refused
 * or unreachable node is checked at most once a second (not once per round). Warnings are logged once per node and text. Thread-safe.
 */
final class PreflightGate {
    private static final Logger log = LoggerFactory.getLogger(PreflightGate.class);
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RedlockContext ctx;
    private final Preflight mode;
    private final State[] nodes;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private static final class State {
        volatile boolean suspect;
        volatile String refusal;          // why the node votes ERROR (STRICT), null when it passed
        volatile long checkedAt = Long.MIN_VALUE / 2;
        volatile long lastAgeMs = -1;
        volatile boolean unreachable;     // the last check could not run
        volatile boolean passed;          // a check passed once: later re-checks run beside the votes
        CompletableFuture<Void> running;  // guarded by this
    }

    PreflightGate(RedlockContext ctx) {
        this.ctx = ctx;
        this.mode = ctx.config().preflight();
        this.nodes = new State[ctx.nodes().size()];
        for (int i = 0; i < nodes.length; i++) nodes[i] = new State();
    }

    /** host:port of a node, never credentials. */
    private String hostPort(int node) {
        return RedlockContext.hostPort(ctx.config().allNodeAddresses().get(node));
    }

    /**
     * Checks every node (at most {@code timeout}); returns the findings that refuse a node (STRICT fails creation
     * with them). Nodes that did not answer in time are suspect: checked when they first answer.
     */
    List<PreflightFinding> atCreate(Duration timeout) {
        if (mode == Preflight.OFF) return List.of();
        List<CompletableFuture<NodeFacts>> all = new ArrayList<>();
        for (NodeClient n : ctx.nodes()) all.add(PreflightCheck.facts(n, hostPort(n.index()), ctx::wallMicros));
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("not every node answered the preflight check", e);
        }
        long tolerance = PreflightRules.clockToleranceUs(ctx.config());
        List<NodeFacts> answered = new ArrayList<>();
        List<PreflightFinding> findings = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            CompletableFuture<NodeFacts> f = all.get(i);
            if (f.isDone() && !f.isCompletedExceptionally()) {
                NodeFacts facts = f.join();
                answered.add(facts);
                findings.addAll(PreflightRules.check(facts, tolerance));
                nodes[i].checkedAt = ctx.ticker().nanoTime();
                nodes[i].passed = true;   // a STRICT refusal fails the creation instead
            } else {
                nodes[i].suspect = true;
            }
        }
        findings.addAll(PreflightRules.compareClocks(answered, tolerance));
        List<PreflightFinding> refusals = new ArrayList<>();
        for (PreflightFinding f : findings) {
            if (f.refuse() && mode == Preflight.STRICT) refusals.add(f);
            else warnOnce(f);
        }
        return refusals;
    }

    /**
     * Sends an ACQUIRE to {@code n}, after a check when the node is suspect or refused: the send itself when no check
     * is due (the common path adds nothing), else a future that fails with the refusal (STRICT) or sends once the
     * node passed.
     */
    CompletableFuture<Object> send(NodeClient n, LuaScript script, Object[] command) {
        if (mode == Preflight.OFF) return n.eval(script, command);
        State s = nodes[n.index()];
        if (!s.suspect && s.refusal == null) return n.eval(script, command);
        return sendChecked(n, s, () -> n.eval(script, command));
    }

    private CompletableFuture<Object> sendChecked(NodeClient n, State s, Supplier<CompletableFuture<Object>> send) {
        CompletableFuture<Void> check = checkIfDue(n, s);
        // a node that passed before is re-checked beside this vote, not before it: a slow check must not cost the
        // vote (a restarted node is quarantined meanwhile anyway); the verdict applies from the next vote on
        if (s.passed && s.refusal == null) return send.get();
        if (check == null) {
            String refusal = s.refusal;
            return refusal != null ? CompletableFuture.failedFuture(new RedlockException(refusal)) : send.get();
        }
        return check.thenCompose(x -> {
            String refusal = s.refusal;
            return refusal != null ? CompletableFuture.failedFuture(new RedlockException(refusal)) : send.get();
        });
    }

    /** The check of this node in flight or started now; null when its last verdict is recent enough to stand. */
    private CompletableFuture<Void> checkIfDue(NodeClient n, State s) {
        CompletableFuture<Void> check;
        synchronized (s) {
            // a refused or unreachable node is checked at most once a second; one that passed is checked at once
            boolean recent = (s.refusal != null || s.unreachable) && ctx.ticker().nanoTime() - s.checkedAt < RECHECK_NANOS;
            if (s.running != null) {
                check = s.running;
            } else if (recent) {
                check = null;                                // its verdict of less than a second ago stands
            } else {
                check = recheck(n, s);
                s.running = check.isDone() ? null : check;   // the handler clears it when it completes later
            }
        }
        return check;
    }

    private CompletableFuture<Void> recheck(NodeClient n, State s) {
        return PreflightCheck.check(n, hostPort(n.index()), ctx.config(), ctx::wallMicros).handle((findings, e) -> {
            synchronized (s) {
                s.running = null;
            }
            s.checkedAt = ctx.ticker().nanoTime();
            s.unreachable = e != null;
            if (e != null) return null;   // still unreachable: stays suspect, the ACQUIRE fails the same way
            String refusal = null;
            for (PreflightFinding f : findings) {
                if (f.refuse() && mode == Preflight.STRICT) refusal = refusal == null ? f.message() : refusal + "; " + f.message();
                else warnOnce(f);
            }
            if (refusal != null && !refusal.equals(s.refusal)) log.warn("preflight refuses node: {}", refusal);
            s.refusal = refusal;
            if (refusal == null) s.passed = true;
            s.suspect = false;
            return null;
        });
    }

    /** A vote of this node was an error or a timeout: check it again before its next ACQUIRE. */
    void failed(int node) {
        if (mode != Preflight.OFF) nodes[node].suspect = true;
    }

    /** The memory age a node reported; going down means a new identity (restart, failover): check it again. */
    void sawAge(int node, long ageMs) {
        State s = nodes[node];
        long last = s.lastAgeMs;
        s.lastAgeMs = ageMs;
        if (mode != Preflight.OFF && last >= 0 && ageMs < last) s.suspect = true;
    }

    private void warnOnce(PreflightFinding f) {
        if (warned.add(f.message())) log.warn("preflight: {}", f.message());
    }
}
