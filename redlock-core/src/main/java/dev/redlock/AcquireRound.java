package dev.redlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One quorum round for one resource: SET NX PX on every node in parallel (one script per node), validity check,
 * then (fencing on) token = max(fences of the granting nodes) + 1 written back to a quorum that still holds our
 * owner value. On any failure every node that may hold our value (all but those that refused) gets a
 * token-checked release, and so does every grant that arrives later. A node that reports a membership conflict
 * (it serves a client with another node list) fails the round at once, and a lease whose round hears of one after
 * it succeeded is marked lost.
 */
final class AcquireRound implements QuorumCall.LateGrants {
    private enum State { PENDING, SUCCEEDED, FAILED }

    private final RedlockContext ctx;
    private final String resource;
    private final Duration ttl;
    private final String owner;
    private final long start;
    private QuorumCall votes;
    private State state = State.PENDING;
    private HeldLease lease;
    private String failure;
    private List<NodeVote> fenceVotes = List.of();
    private final String[] holders;          // fingerprint of the refusing node's holder, by node (guarded by this)
    private final long[] ages;               // memory age (ms) each node reported, by node (guarded by this)
    private final boolean[] wroteGuess;      // the node wrote our guessed token with its grant (guarded by this)
    private boolean heldElsewhere;           // guarded by this
    private int conflictNode = -1;           // a node that reported a membership conflict (guarded by this)
    private String conflict;                 // the membership it named (guarded by this)

    AcquireRound(RedlockContext ctx, String resource, Duration ttl) {
        this.ctx = ctx;
        this.resource = resource;
        this.ttl = ttl;
        this.owner = ctx.newOwnerValue();
        this.start = ctx.ticker().nanoTime();
        this.holders = new String[ctx.nodes().size()];
        this.ages = new long[ctx.nodes().size()];
        this.wroteGuess = new boolean[ctx.nodes().size()];
        ctx.roundStarted();
    }

    /** Runs the round; completes with a lease, or with {@code null} after releasing everything (see {@link #failure()}). */
    CompletableFuture<HeldLease> run() {
        RedlockConfig cfg = ctx.config();
        List<Object> keys = List.of(ctx.lockKey(resource), ctx.fenceKey(resource), ctx.markerKey());
        String ttlMs = Long.toString(ttl.toMillis());
        long quarantine = ctx.knownQuarantineMs();
        long guess = cfg.fencing() ? guess(ctx.tokenHints().get(resource)) : 0;
        Object[] acquire = NodeClient.scriptCommand(LuaScript.ACQUIRE, keys, owner, ttlMs, Long.toString(quarantine),
                Long.toString(guess), ctx.guessCapArg(), LuaScript.FENCE_RETENTION_ARG, ctx.membership().field(),
                Long.toString(Membership.windowMs(ttl.toMillis(), quarantine)));
        synchronized (this) {
            votes = QuorumCall.start(ctx, RedlockListener.Operation.ACQUIRE, ctx.allNodes(), false, start,
                    n -> ctx.preflight().send(n, () -> n.eval(LuaScript.ACQUIRE, acquire)),
                    this::classify,
                    this);
        }
        // a node that failed (error, timeout) may come back restarted or replaced: check it before its next vote
        votes.settled().thenAccept(all -> all.forEach(v -> {
            if (v.kind() == NodeOutcome.Kind.ERROR || v.kind() == NodeOutcome.Kind.TIMEOUT) ctx.preflight().failed(v.node());
        }));
        return votes.decision().thenCompose(quorum -> {
            String conflicted = conflictReason();
            if (conflicted != null) return fail(conflicted);
            if (!quorum) return fail("no quorum: " + summary(votes.snapshot()));
            String young = youngGrants();
            if (young != null) return fail(young);
            long deadline = start + ttl.toNanos() - cfg.driftNanos(ttl);
            if (ctx.ticker().nanoTime() >= deadline) return fail("quorum reached only after the validity was used up");
            if (!cfg.fencing()) return succeed(deadline, -1);
            // One-round fencing. Every counted grant read a fence below our guess and wrote the guess (a node does
            // not write a guess beyond its own clock plus the cap), so its ACQUIRE script, in the same atomic step as
            // the grant, raised that node's fence to the guess: the guess is already written to a quorum of nodes
            // holding our owner value, and it exceeds every fence that quorum held, hence (quorums intersect) every
            // earlier token. Otherwise the second phase below does it with max + 1.
            if (guess > 0 && votes.maxGrantedFence() < guess && everyGrantWroteTheGuess()) return succeed(deadline, guess);
            return writeFence(deadline);
        });
    }

    /** Whether every grant counted so far wrote the guessed token. */
    private boolean everyGrantWroteTheGuess() {
        int[] granted = votes.grantedNodes();
        synchronized (this) {
            for (int node : granted) if (!wroteGuess[node]) return false;
        }
        return true;
    }

    /** Why the round fails for a membership conflict, or null when no node reported one. */
    private synchronized String conflictReason() {
        if (conflict == null) return null;
        return "membership conflict: node " + ctx.nodeAddress(conflictNode) + " serves a client of node list " + conflict;
    }

    /** The node that reported a membership conflict, or -1 (after the round). */
    synchronized int conflictNode() {
        return conflictNode;
    }

    /** The membership the conflicting node named ({@code id} or {@code id+previous id}), or null. */
    synchronized String conflictMembership() {
        return conflict;
    }

    /**
     * Fences at or above this are node clocks in microseconds (2001-09-09 onwards), not the small consecutive
     * tokens of nodes marked fresh.
     */
    static final long TIME_FENCE = 1_000_000_000_000_000L;

    /**
     * The token to try in one round: none (0) without a hint; the hint + 1 where the nodes count from 0 (marked
     * fresh); elsewhere at least this process's clock plus {@link #guessLeadMicros}, because those nodes' fences
     * read at least their clock: a guess of "last seen + 1" would lose to the clock as soon as time moved on. None
     * either while this client's clock is off the nodes' ({@link ClockWatch}): the nodes would not write it.
     */
    private long guess(long seen) {
        if (seen < 0) return 0;
        if (seen < TIME_FENCE) return seen + 1;
        if (!ctx.clockWatch().guessing()) return 0;
        return Math.max(seen + 1, ctx.wallMicros() + guessLeadMicros(ctx.config()));
    }

    /**
     * The clock margin of the fence argument: 100 ms, or a quarter of the restart quarantine when that is shorter.
     * A node writes a guessed token only up to its own clock plus this ({@link #guessCapMicros}), and preflight keeps
     * every node within {@code (restartQuarantine - 2 margin) / 2} of this client and of the other nodes, so a token
     * written before a node lost its memory is below that node's clock once its quarantine has passed (see
     * docs/deployments.md: fences).
     */
    static long clockMarginMicros(RedlockConfig cfg) {
        long q = cfg.restartQuarantine().toNanos() / 1000;
        long max = 100_000;
        return q == 0 ? max : Math.min(max, q / 4);
    }

    /**
     * How far ahead of this process's clock a guessed token is: half the margin, so it beats a node's clock read a
     * round trip later and stays under the node's cap while the clocks are within half the margin of each other.
     */
    static long guessLeadMicros(RedlockConfig cfg) {
        return clockMarginMicros(cfg) / 2;
    }

    /** How far beyond its own clock a node writes a guessed token: the margin. */
    static long guessCapMicros(RedlockConfig cfg) {
        return clockMarginMicros(cfg);
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

    private CompletableFuture<HeldLease> writeFence(long deadline) {
        ctx.fencePhaseRan();
        long token = votes.maxGrantedFence() + 1;
        int[] holders = votes.grantedNodes();
        List<Object> keys = List.of(ctx.lockKey(resource), ctx.fenceKey(resource), ctx.markerKey());
        Object[] writeFence = NodeClient.scriptCommand(LuaScript.WRITE_FENCE, keys, owner, Long.toString(token),
                LuaScript.FENCE_RETENTION_ARG);
        QuorumCall write = QuorumCall.start(ctx, RedlockListener.Operation.FENCE, holders, false, ctx.ticker().nanoTime(),
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

    private NodeVote classify(int node, Object reply, long elapsed) {
        List<?> r = (List<?>) reply;
        long status = ((Number) r.get(0)).longValue();
        long fence = ((Number) r.get(1)).longValue();
        long age = ((Number) r.get(2)).longValue();
        long quarantine = ((Number) r.get(3)).longValue();
        ctx.sawQuarantine(quarantine);
        ctx.preflight().sawAge(node, age);
        ctx.clockWatch().saw(node, ((Number) r.get(6)).longValue(), ctx.wallMicros(), elapsed);
        boolean lateConflict = false;
        HeldLease succeeded;
        synchronized (this) {
            ages[node] = age;
            wroteGuess[node] = ((Number) r.get(5)).longValue() == 1;
            if (status == 0) holders[node] = String.valueOf(r.get(4));
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
        // a quarantined node's fence is its memory floor, not a token anybody holds: no hint from it
        if (ctx.config().fencing() && status != 2) ctx.tokenHints().saw(resource, fence);
        if (status == 1) return NodeVote.granted(node, fence, elapsed);
        if (status == 2) {
            return NodeVote.refused(node, "quarantined: node memory began " + age + "ms ago, restart quarantine is "
                    + quarantine + "ms (restarted, failed over or flushed? brand-new node? see Redlock.markNodesFresh)",
                    elapsed);
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
        if (ctx.listeners().any()) ctx.listeners().onLeaseGranted(resource, deadline - ctx.ticker().nanoTime());
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
        return Arrays.copyOf(out, n);
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
