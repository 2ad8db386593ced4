package dev.redlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One quorum round of an acquisition, whatever it locks: one acquire script per node in parallel, validity check,
 * then (fencing on) the tokens, written back to a quorum that still holds our owner value where the one-round guess
 * did not do it. On any failure every node that may hold our owner value (all but those that refused) gets a
 * token-checked release, and so does every grant that arrives later. A node that reports a membership conflict (it
 * serves a client with another node list) fails the round at once, and a lease whose round hears of one after it
 * succeeded is marked lost. Subclasses say what is locked: {@link AcquireRound} (one resource), {@link AcquireAllRound}
 * (several, all or nothing).
 *
 * <p>Every acquire script answers {@code {status, fence(s), memoryAgeMs, quarantineMs, holder, wrote, nodeUs,
 * conflict, ...}} (see {@link LuaScript}): status 1 granted, 0 held by another owner, 2 quarantined, 3 membership
 * conflict.
 */
abstract class QuorumRound<L extends LeaseCore> implements QuorumCall.LateGrants {
    private enum State { PENDING, SUCCEEDED, FAILED }

    final RedlockContext ctx;
    final Duration ttl;
    final String owner;
    private final long start;
    QuorumCall votes;
    private State state = State.PENDING;
    private L lease;
    private String failure;
    private List<NodeVote> fenceVotes = List.of();
    private final String[] holders;          // fingerprint of the refusing node's holder, by node (guarded by this)
    private final long[] ages;               // memory age (ms) each node reported, by node (guarded by this)
    private boolean heldElsewhere;           // guarded by this
    private int conflictNode = -1;           // a node that reported a membership conflict (guarded by this)
    private String conflict;                 // the membership it named (guarded by this)

    QuorumRound(RedlockContext ctx, Duration ttl) {
        this.ctx = ctx;
        this.ttl = ttl;
        this.owner = ctx.newOwnerValue();
        this.start = ctx.ticker().nanoTime();
        this.holders = new String[ctx.nodes().size()];
        this.ages = new long[ctx.nodes().size()];
        ctx.roundStarted();
    }

    /** What is locked, for listeners and messages: the resource, or the resources as {@code [a, b]}. */
    abstract String label();

    /** The next round of the same acquisition (a new owner value, a new start). */
    abstract QuorumRound<L> next();

    /** The acquire script. */
    abstract LuaScript acquireScript();

    /** The acquire command sent to every node ({@link #acquireScript()} with its keys and arguments). */
    abstract Object[] acquireCommand();

    /**
     * Records what a node's reply says about the fences (and token hints: status 0 and 1, fencing on). Called under
     * this round's lock. Returns the fence its vote carries (-1 for none).
     */
    abstract long sawFences(int node, long status, List<?> reply);

    /** What tells two refusals apart: the same owner of the same key gives the same text; '' for unknown. */
    abstract String holder(List<?> reply);

    /** Why a node that answered status 0 refused. */
    abstract String heldDetail(List<?> reply);

    /** After a decided quorum with validity left, fencing on: the tokens, in one round or with a second phase. */
    abstract CompletableFuture<L> fence(long deadline);

    /** The lease for a round that succeeded, with its tokens (fencing off: none). */
    abstract L newLease(long deadline);

    /** The token-checked release of our owner value on {@code targets}, waking nobody. */
    abstract void releaseOurs(int[] targets);

    /** The resource whose release a waiter listens for after this round failed. */
    abstract String waitResource();

    /** The failure of an acquisition whose last round was this one. */
    abstract LockUnavailableException unavailable(int attempts, List<NodeOutcome> outcomes);

    /** The failure of an acquisition refused for a membership conflict in this round. */
    abstract MembershipConflictException membershipConflict(int attempts, String node, String other,
                                                            List<NodeOutcome> outcomes);

    /** Runs the round; completes with a lease, or with {@code null} after releasing everything (see {@link #failure()}). */
    final CompletableFuture<L> run() {
        RedlockConfig cfg = ctx.config();
        LuaScript script = acquireScript();
        Object[] acquire = acquireCommand();
        synchronized (this) {
            votes = QuorumCall.start(ctx, RedlockListener.Operation.ACQUIRE, ctx.allNodes(), false, start,
                    n -> ctx.preflight().send(n, script, acquire),
                    this::classify,
                    this);
        }
        return votes.decision().thenCompose(quorum -> {
            String conflicted = conflictReason();
            if (conflicted != null) return fail(conflicted);
            if (!quorum) return fail("no quorum: " + summary(votes.snapshot()));
            String young = youngGrants();
            if (young != null) return fail(young);
            long deadline = start + ttl.toNanos() - cfg.driftNanos(ttl);
            if (ctx.ticker().nanoTime() >= deadline) return fail("quorum reached only after the validity was used up");
            if (!cfg.fencing()) return succeed(deadline);
            return fence(deadline);
        });
    }

    /** Why the round fails for a membership conflict, or null when no node reported one. */
    private synchronized String conflictReason() {
        if (conflict == null) return null;
        return "membership conflict: node " + ctx.nodeAddress(conflictNode) + " serves a client of node list " + conflict;
    }

    /** The node that reported a membership conflict, or -1 (after the round). */
    final synchronized int conflictNode() {
        return conflictNode;
    }

    /** The membership the conflicting node named ({@code id} or {@code id+previous id}), or null. */
    final synchronized String conflictMembership() {
        return conflict;
    }

    /**
     * A node that lost its memory also lost the quarantine clients stored on it, so the strictest one is checked
     * here too: grants from nodes whose memory began less than the largest quarantine seen (in this round's replies
     * or earlier) ago do not count. Returns why the round fails, or null when a quorum remains.
     */
    private String youngGrants() {
        long strictest = ctx.knownQuarantineMs();
        if (strictest <= 0) return null;
        int counted = 0;
        boolean[] old = new boolean[ctx.nodes().size()];
        List<Integer> young = new ArrayList<>();
        List<NodeVote> now = votes.snapshot();
        synchronized (this) {
            for (NodeVote v : now) {
                if (v == null || !v.isGranted()) continue;
                if (ages[v.node()] >= strictest) {
                    counted++;
                    old[v.node()] = true;
                } else {
                    young.add(v.node());
                }
            }
        }
        if (young.isEmpty() || ctx.quorum().reachedBy(old)) return null;
        StringBuilder b = new StringBuilder();
        for (int n : young) b.append(b.length() == 0 ? "" : ", ").append(ctx.node(n).name()).append(" (memory began ")
                .append(ages[n]).append("ms ago)");
        return "grants from nodes in the strictest restart quarantine (" + strictest + "ms, stored by another client) "
                + "do not count: " + b + "; " + counted + " grants left, a quorum is " + ctx.quorum().describe();
    }

    /**
     * The second fencing phase: {@code command} (a fence-write script that writes only where our owner value still
     * holds every key) to the nodes that granted; a quorum must confirm before the validity ends. The phase waits
     * for its replies up to that end, not one node timeout: the validity is what bounds the round (a reply slower
     * than the node timeout under load is still a confirmation while our owner value holds), and a confirmation
     * counted at or after the deadline is never trusted (the check below; the timer votes every node that has not
     * answered by then a timeout, which decides the phase false).
     */
    final CompletableFuture<L> writeFence(long deadline, LuaScript script, Object[] command, String tokens) {
        ctx.fencePhaseRan();
        long now = ctx.ticker().nanoTime();
        QuorumCall write = QuorumCall.start(ctx, RedlockListener.Operation.FENCE, votes.grantedNodes(), false,
                now, Math.max(0, deadline - now), "no answer before the validity ended", n -> n.eval(script, command),
                QuorumRound::fenceWritten, QuorumCall.LateGrants.IGNORE);
        return write.decision().thenCompose(ok -> {
            fenceVotes = write.snapshot();
            if (!ok) return fail("fencing token " + tokens + " could not be written to a quorum: " + summary(fenceVotes));
            if (ctx.ticker().nanoTime() >= deadline) return fail("validity used up during the fencing phase");
            return succeed(deadline);
        });
    }

    private static NodeVote fenceWritten(int node, Object reply, long elapsed) {
        return ((Number) reply).longValue() == 1
                ? NodeVote.granted(node, -1, elapsed)
                : NodeVote.refused(node, "lock no longer held when writing the fence", elapsed);
    }

    private NodeVote classify(int node, Object reply, long elapsed) {
        List<?> r = (List<?>) reply;
        long status = AcquireReply.longAt(r, 0);
        long age = AcquireReply.longAt(r, 2);
        long quarantine = AcquireReply.longAt(r, 3);
        ctx.sawQuarantine(quarantine);
        ctx.preflight().sawAge(node, age);
        ctx.clockWatch().saw(node, AcquireReply.longAt(r, 6), ctx.wallMicros(), elapsed);
        boolean lateConflict = false;
        long fence;
        L succeeded;
        synchronized (this) {
            ages[node] = age;
            fence = sawFences(node, status, r);
            if (status == 0) holders[node] = holder(r);
            if (status == 3 && conflict == null) {
                conflict = String.valueOf(r.get(7));
                conflictNode = node;
                lateConflict = state == State.SUCCEEDED;
            }
            succeeded = lease;
        }
        if (lateConflict && succeeded != null) {
            succeeded.markLost(RedlockListener.LossReason.MEMBERSHIP_CONFLICT, "node " + ctx.nodeAddress(node)
                    + " reported, after the grant, that it serves a client with another node list");
        }
        if (status == 3) {
            return NodeVote.refused(node, "membership conflict: this node serves a client of node list "
                    + r.get(7) + ", which shares no list with this client's (" + ctx.membership().id()
                    + "); see MembershipConflictException", elapsed);
        }
        if (status == 1) return NodeVote.granted(node, fence, elapsed);
        if (status == 2) {
            return NodeVote.refused(node, "quarantined: node memory began " + age + "ms ago, restart quarantine is "
                    + quarantine + "ms (restarted, failed over or flushed? brand-new node? see Redlock.markNodesFresh)",
                    elapsed);
        }
        return NodeVote.refused(node, heldDetail(r), elapsed);
    }

    final CompletableFuture<L> succeed(long deadline) {
        L l = newLease(deadline);
        synchronized (this) {
            state = State.SUCCEEDED;
            lease = l;
        }
        if (ctx.listeners().any()) ctx.listeners().onLeaseGranted(label(), deadline - ctx.ticker().nanoTime());
        return CompletableFuture.completedFuture(l);
    }

    private CompletableFuture<L> fail(String reason) {
        synchronized (this) {
            state = State.FAILED;
            failure = reason;
            heldElsewhere = quorumHolder() != null;
        }
        // The cleanup of a failed round wakes nobody: lost to a holder of a quorum, that holder's release will
        // wake the waiters; lost a split vote, every loser backs off at random and retries (waking the others
        // here would only start the next collision).
        releaseOurs(mayHoldOurs());
        return CompletableFuture.completedFuture(null);
    }

    /** The fingerprint of an owner seen on a quorum of nodes, or null (guarded by this). */
    private String quorumHolder() {
        Map<String, boolean[]> seen = new HashMap<>();
        for (int node = 0; node < holders.length; node++) {
            String h = holders[node];
            if (h == null || h.isEmpty()) continue;
            boolean[] on = seen.computeIfAbsent(h, x -> new boolean[holders.length]);
            on[node] = true;
            if (ctx.quorum().reachedBy(on)) return h;
        }
        return null;
    }

    /** The holder text a refusing node reported, or null (after the round). */
    final synchronized String holderOn(int node) {
        return holders[node];
    }

    /** The holder seen on a quorum of nodes, or null (after the round). */
    final synchronized String heldOnAQuorum() {
        return quorumHolder();
    }

    /**
     * After a round lost to a holder of a quorum: a node where that holder's value was seen (the place to check
     * whether it is still held), or -1.
     */
    final synchronized int heldOnNode() {
        String h = quorumHolder();
        if (h == null) return -1;
        for (int node = 0; node < holders.length; node++) if (h.equals(holders[node])) return node;
        return -1;
    }

    /**
     * After a failed round: true when one other owner held the lock on a quorum of nodes (wait for its release),
     * false for a split vote or failed nodes.
     */
    final synchronized boolean heldElsewhere() {
        return heldElsewhere;
    }

    /**
     * After a failed round: true when every node that answered granted or was held by another owner (no error,
     * timeout or quarantine) and no single owner held a quorum: the lock is up for grabs, the round lost a race.
     */
    final synchronized boolean splitVote() {
        if (heldElsewhere) return false;
        boolean refused = false;
        List<NodeVote> now = votes.snapshot();
        for (int slot = 0; slot < now.size(); slot++) {
            NodeVote v = now.get(slot);
            if (v == null || v.isGranted()) continue;
            if (v.kind() != NodeOutcome.Kind.REFUSED || holders[slot] == null) return false;
            refused = true;
        }
        return refused;
    }

    /** When the round started, on the context's ticker. */
    final long startNanos() {
        return start;
    }

    /**
     * Nodes that may hold our owner value: all but those that refused. A refusal comes from the atomic acquire
     * script before or instead of its writes (held by another owner, quarantined, membership conflict), so a node
     * that refused never set our value; every other node (granted, error, timeout, not answered yet) gets the
     * release. Releasing only these keeps a waiter's failed round cheap under contention (5 commands, not 10).
     */
    private int[] mayHoldOurs() {
        List<NodeVote> now = votes.snapshot();
        int[] out = new int[now.size()];
        int n = 0;
        for (int slot = 0; slot < now.size(); slot++) {
            NodeVote v = now.get(slot);
            if (v == null || v.kind() != NodeOutcome.Kind.REFUSED) out[n++] = ctx.allNodes()[slot];
        }
        return Arrays.copyOf(out, n);
    }

    /** A node that failed (error, timeout) may come back restarted or replaced: check it before its next vote. */
    @Override
    public final void failed(int node) {
        ctx.preflight().failed(node);
    }

    /** A grant that arrived after the decision: release it unless it belongs to a lease still held. */
    @Override
    public final void granted(int node) {
        L l;
        synchronized (this) {
            if (state == State.PENDING) return; // covered: failure releases all nodes, success's lease owns them
            l = lease;
        }
        if (l == null || !l.isHeld()) {
            // A lease no longer held has sent its release to every node, and the library's transport runs one
            // node's commands in the order they were written (one connection, FIFO): that release follows this
            // grant's script on the node and removes it. An adapter's transport may reorder: release again.
            if (l != null && ctx.node(node).inOrder()) return;
            releaseOurs(new int[] {node});
        }
    }

    final synchronized String failure() {
        return failure;
    }

    /** Every node's outcome once all answered or timed out (fence-write refusals replace the grant they followed). */
    final CompletableFuture<List<NodeOutcome>> outcomes() {
        return votes.settled().thenApply(all -> {
            List<NodeOutcome> out = new ArrayList<>(all.size());
            for (NodeVote v : all) {
                NodeVote shown = v;
                for (NodeVote f : fenceVotes) {
                    if (f != null && f.node() == v.node() && !f.isGranted()) {
                        shown = new NodeVote(f.node(), f.kind(), -1, "fence write: " + f.detail(), f.elapsedNanos());
                    }
                }
                out.add(shown.toOutcome(ctx.node(v.node()).name()));
            }
            return out;
        });
    }

    static String summary(List<NodeVote> votes) {
        int g = 0, r = 0, e = 0, t = 0, p = 0;
        for (NodeVote v : votes) {
            if (v == null) { p++; continue; }
            switch (v.kind()) {
                case GRANTED -> g++;
                case REFUSED -> r++;
                case ERROR -> e++;
                case TIMEOUT -> t++;
            }
        }
        return g + " granted, " + r + " refused, " + e + " error, " + t + " timeout" + (p > 0 ? ", " + p + " pending" : "");
    }
}
