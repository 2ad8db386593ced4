package dev.redlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One quorum round for one resource: SET NX PX on every node in parallel (one script per node), validity check,
 * then (fencing on) token = max(fences of the granting nodes) + 1 written back to a quorum that still holds our
 * owner value. On any failure every node that may hold our value (all but those that refused) gets a
 * token-checked release, and so does every grant that arrives later.
 */
final class AcquireRound implements QuorumCall.LateGrants {
    private enum State { PENDING, SUCCEEDED, FAILED }

    private final RedlockContext ctx;
    private final String resource;
    private final Duration ttl;
    private final String owner = RedlockContext.newOwner();
    private final long start;
    private QuorumCall votes;
    private State state = State.PENDING;
    private HeldLease lease;
    private String failure;
    private List<NodeVote> fenceVotes = List.of();
    private final String[] holders;          // fingerprint of the refusing node's holder, by node (guarded by this)
    private boolean heldElsewhere;           // guarded by this

    AcquireRound(RedlockContext ctx, String resource, Duration ttl) {
        this.ctx = ctx;
        this.resource = resource;
        this.ttl = ttl;
        this.start = ctx.ticker().nanoTime();
        this.holders = new String[ctx.nodes().size()];
        ctx.roundStarted();
    }

    /** Runs the round; completes with a lease, or with {@code null} after releasing everything (see {@link #failure()}). */
    CompletableFuture<HeldLease> run() {
        RedlockConfig cfg = ctx.config();
        List<Object> keys = List.of(ctx.lockKey(resource), ctx.fencesKey(), ctx.markerKey());
        String ttlMs = Long.toString(ttl.toMillis());
        String quarantineMs = Long.toString(cfg.restartQuarantine().toMillis());
        long quarantine = cfg.restartQuarantine().toMillis();
        long seen = cfg.fencing() ? ctx.tokenHints().get(resource) : -1;
        long guess = seen >= 0 ? seen + 1 : 0;
        String guessText = Long.toString(guess);
        Object[] acquire = NodeClient.scriptCommand(LuaScript.ACQUIRE, keys, owner, ttlMs, quarantineMs, resource,
                guessText);
        synchronized (this) {
            votes = QuorumCall.start(ctx, ctx.allNodes(), cfg.quorum(), start,
                    n -> n.eval(LuaScript.ACQUIRE, acquire),
                    (node, reply, elapsed) -> classify(node, reply, elapsed, quarantine),
                    this);
        }
        return votes.decision().thenCompose(quorum -> {
            if (!quorum) return fail("no quorum: " + summary(votes.snapshot()));
            long deadline = start + ttl.toNanos() - cfg.driftNanos(ttl);
            if (ctx.ticker().nanoTime() >= deadline) return fail("quorum reached only after the validity was used up");
            if (!cfg.fencing()) return succeed(deadline, -1);
            // One-round fencing. Every counted grant read a fence below our guess, so its ACQUIRE script, in the
            // same atomic step as the grant, raised that node's fence to the guess: the guess is already written to
            // a quorum of nodes holding our owner value, and it exceeds every fence that quorum held, hence (quorums
            // intersect) every earlier token. Otherwise the second phase below does it with max + 1.
            if (guess > 0 && votes.maxGrantedFence() < guess) return succeed(deadline, guess);
            return writeFence(deadline);
        });
    }

    private CompletableFuture<HeldLease> writeFence(long deadline) {
        long token = votes.maxGrantedFence() + 1;
        int[] holders = votes.grantedNodes();
        List<Object> keys = List.of(ctx.lockKey(resource), ctx.fencesKey());
        Object[] writeFence = NodeClient.scriptCommand(LuaScript.WRITE_FENCE, keys, owner, Long.toString(token), resource);
        QuorumCall write = QuorumCall.start(ctx, holders, ctx.config().quorum(), ctx.ticker().nanoTime(),
                n -> n.eval(LuaScript.WRITE_FENCE, writeFence),
                (node, reply, elapsed) -> ((Number) reply).longValue() == 1
                        ? NodeVote.granted(node, token, elapsed)
                        : NodeVote.refused(node, "lock no longer held when writing the fence", elapsed),
                QuorumCall.LateGrants.IGNORE);
        return write.decision().thenCompose(ok -> {
            fenceVotes = write.snapshot();
            if (!ok) return fail("fencing token " + token + " could not be written to a quorum: " + summary(fenceVotes));
            if (ctx.ticker().nanoTime() >= deadline) return fail("validity used up during the fencing phase");
            return succeed(deadline, token);
        });
    }

    private NodeVote classify(int node, Object reply, long elapsed, long quarantineMs) {
        List<?> r = (List<?>) reply;
        long status = ((Number) r.get(0)).longValue();
        long fence = ((Number) r.get(1)).longValue();
        // a quarantined node's fence is its memory floor, not a token anybody holds: no hint from it
        if (ctx.config().fencing() && status != 2) ctx.tokenHints().saw(resource, fence);
        if (status == 1) return NodeVote.granted(node, fence, elapsed);
        if (status == 0 && r.size() > 3) {
            synchronized (this) {
                holders[node] = String.valueOf(r.get(3));
            }
        }
        if (status == 2) {
            long age = ((Number) r.get(2)).longValue();
            return NodeVote.refused(node, "quarantined: node memory began " + age + "ms ago, restartQuarantine is "
                    + quarantineMs + "ms (restarted without persistence? brand-new node? see Redlock.markNodesFresh)", elapsed);
        }
        return NodeVote.refused(node, "held by another owner", elapsed);
    }

    private CompletableFuture<HeldLease> succeed(long deadline, long token) {
        if (token > 0) ctx.tokenHints().saw(resource, token);
        HeldLease l = new HeldLease(ctx, resource, owner, token, ttl, deadline);
        synchronized (this) {
            state = State.SUCCEEDED;
            lease = l;
        }
        return CompletableFuture.completedFuture(l);
    }

    private CompletableFuture<HeldLease> fail(String reason) {
        boolean held;
        synchronized (this) {
            state = State.FAILED;
            failure = reason;
            heldElsewhere = held = oneOwnerHoldsAQuorum();
        }
        // The cleanup of a failed round wakes nobody: lost to a holder of a quorum, that holder's release will
        // wake the waiters; lost a split vote, every loser backs off at random and retries (waking the others
        // here would only start the next collision).
        ctx.release(resource, owner, mayHoldOurs(), false);
        return CompletableFuture.completedFuture(null);
    }

    /** True when one other owner was seen on at least quorum nodes of this round (guarded by this). */
    private boolean oneOwnerHoldsAQuorum() {
        return quorumHolder() != null;
    }

    /** The fingerprint of an owner seen on at least quorum nodes, or null (guarded by this). */
    private String quorumHolder() {
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        for (String h : holders) {
            if (h == null || h.isEmpty()) continue;
            if (seen.merge(h, 1, Integer::sum) >= ctx.config().quorum()) return h;
        }
        return null;
    }

    /**
     * After a round lost to a holder of a quorum: a node where that holder's value was seen (the place to check
     * whether it is still held), or -1.
     */
    synchronized int heldOnNode() {
        String h = quorumHolder();
        if (h == null) return -1;
        for (int node = 0; node < holders.length; node++) if (h.equals(holders[node])) return node;
        return -1;
    }

    /**
     * After a failed round: true when one other owner held the lock on a quorum of nodes (wait for its release),
     * false for a split vote or failed nodes.
     */
    synchronized boolean heldElsewhere() {
        return heldElsewhere;
    }

    /**
     * After a failed round: true when every node that answered granted or was held by another owner (no error,
     * timeout or quarantine) and no single owner held a quorum: the lock is up for grabs, the round lost a race.
     */
    synchronized boolean splitVote() {
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
    long startNanos() {
        return start;
    }

    /**
     * Nodes that may hold our owner value: all but those that refused. A refusal comes from the atomic ACQUIRE
     * script before or instead of its SET NX (held by another owner, or quarantined), so a node that refused
     * never set our value; every other node (granted, error, timeout, not answered yet) gets the release.
     * Releasing only these keeps a waiter's failed round cheap under contention (5 commands, not 10).
     */
    private int[] mayHoldOurs() {
        List<NodeVote> now = votes.snapshot();
        int[] out = new int[now.size()];
        int n = 0;
        for (int slot = 0; slot < now.size(); slot++) {
            NodeVote v = now.get(slot);
            if (v == null || v.kind() != NodeOutcome.Kind.REFUSED) out[n++] = ctx.allNodes()[slot];
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** A grant that arrived after the decision: release it unless it belongs to a lease still held. */
    @Override
    public void granted(int node) {
        HeldLease l;
        synchronized (this) {
            if (state == State.PENDING) return; // covered: failure releases all nodes, success's lease owns them
            l = lease;
        }
        if (l == null || !l.isHeld()) {
            // A lease no longer held has sent its release to every node, and the library's transport runs one
            // node's commands in the order they were written (one connection, FIFO): that release follows this
            // grant's script on the node and removes it. An adapter's transport may reorder: release again.
            if (l != null && ctx.node(node).inOrder()) return;
            ctx.release(resource, owner, new int[] {node}, false);
        }
    }

    synchronized String failure() {
        return failure;
    }

    /** Every node's outcome once all answered or timed out (fence-write refusals replace the grant they followed). */
    CompletableFuture<List<NodeOutcome>> outcomes() {
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
