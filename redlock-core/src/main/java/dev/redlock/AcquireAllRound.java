package dev.redlock;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One quorum round for several resources at once ({@link QuorumRound}): ACQUIRE_ALL on every node grants every
 * resource or none, so a node never holds part of a set, and a round holds nothing while it waits: two callers
 * locking overlapping sets in any order cannot deadlock (a failed round releases at once and backs off). With
 * fencing on, each resource gets its own token: its guess when every counted grant wrote it for that resource, else
 * max(that resource's fences on the granting nodes) + 1; one WRITE_FENCE_ALL per granting node writes the tokens
 * where the guesses did not win, only on a node that still holds our owner value on every key.
 */
final class AcquireAllRound extends QuorumRound<HeldMultiLease> {
    private final ResourceSet set;
    private final long[] guesses;
    private final long[][] fences;       // per node, per resource, as read by the node (guarded by this)
    private final boolean[][] wrote;     // per node, per resource: wrote our guess with its grant (guarded by this)
    private final int[] heldAt;          // per node refusing as held: the 1-based position of a held resource (guarded by this)
    private long[] tokens;

    AcquireAllRound(RedlockContext ctx, ResourceSet set, Duration ttl) {
        super(ctx, ttl);
        this.set = set;
        this.guesses = new long[set.size()];
        this.fences = new long[ctx.nodes().size()][];
        this.wrote = new boolean[ctx.nodes().size()][];
        this.heldAt = new int[ctx.nodes().size()];
    }

    @Override
    String label() {
        return set.label();
    }

    @Override
    AcquireAllRound next() {
        return new AcquireAllRound(ctx, set, ttl);
    }

    @Override
    LuaScript acquireScript() {
        return LuaScript.ACQUIRE_ALL;
    }

    @Override
    Object[] acquireCommand() {
        long quarantine = ctx.knownQuarantineMs();
        Object[] args = new Object[7 + set.size()];
        args[0] = owner;
        args[1] = Long.toString(ttl.toMillis());
        args[2] = Long.toString(quarantine);
        args[3] = ctx.guessCapArg();
        args[4] = LuaScript.FENCE_RETENTION_ARG;
        args[5] = ctx.membership().field();
        args[6] = Long.toString(Membership.windowMs(ttl.toMillis(), quarantine));
        boolean fencing = ctx.config().fencing();
        for (int i = 0; i < set.size(); i++) {
            guesses[i] = fencing ? AcquireRound.guess(ctx, ctx.tokenHints().get(set.get(i))) : 0;
            args[7 + i] = Long.toString(guesses[i]);
        }
        return NodeClient.scriptCommand(LuaScript.ACQUIRE_ALL, set.lockAndFenceKeys(), args);
    }

    @Override
    long sawFences(int node, long status, List<?> reply) {
        List<?> read = (List<?>) reply.get(1);
        List<?> written = (List<?>) reply.get(5);
        long[] f = new long[set.size()];
        boolean[] w = new boolean[set.size()];
        boolean hint = ctx.config().fencing() && (status == 0 || status == 1);
        for (int i = 0; i < f.length; i++) {
            f[i] = ((Number) read.get(i)).longValue();
            w[i] = i < written.size() && ((Number) written.get(i)).longValue() == 1;
            // a quarantined node's fences are its memory floor, not tokens anybody holds: no hint from it
            if (hint) ctx.tokenHints().saw(set.get(i), f[i]);
        }
        fences[node] = f;
        wrote[node] = w;
        if (status == 0) heldAt[node] = (int) ((Number) reply.get(8)).longValue();
        return -1;
    }

    @Override
    String holder(List<?> reply) {
        String fingerprint = String.valueOf(reply.get(4));
        // the same owner on different resources is not one holder of one lock: keep them apart
        return fingerprint.isEmpty() ? "" : reply.get(8) + ":" + fingerprint;
    }

    @Override
    String heldDetail(List<?> reply) {
        int at = (int) ((Number) reply.get(8)).longValue();
        return "'" + set.get(at - 1) + "' held by another owner (nothing granted)";
    }

    @Override
    CompletableFuture<HeldMultiLease> fence(long deadline) {
        int[] granted = votes.grantedNodes();
        long[] t = new long[set.size()];
        boolean oneRound = true;
        synchronized (this) {
            for (int i = 0; i < t.length; i++) {
                long max = 0;
                boolean everyWrote = true;
                for (int node : granted) {
                    max = Math.max(max, fences[node][i]);
                    everyWrote &= wrote[node][i];
                }
                // as AcquireRound: the guess is on a quorum holding our value and beats every fence it held
                if (guesses[i] > 0 && max < guesses[i] && everyWrote) {
                    t[i] = guesses[i];
                } else {
                    t[i] = max + 1;
                    oneRound = false;
                }
            }
        }
        tokens = t;
        if (oneRound) return succeed(deadline);
        Object[] args = new Object[2 + t.length];
        args[0] = owner;
        args[1] = LuaScript.FENCE_RETENTION_ARG;
        for (int i = 0; i < t.length; i++) args[2 + i] = Long.toString(t[i]);
        Object[] write = NodeClient.scriptCommand(LuaScript.WRITE_FENCE_ALL, set.lockAndFenceKeys(), args);
        return writeFence(deadline, LuaScript.WRITE_FENCE_ALL, write, Arrays.toString(t));
    }

    @Override
    HeldMultiLease newLease(long deadline) {
        long[] t = tokens;
        if (t != null) for (int i = 0; i < t.length; i++) ctx.tokenHints().saw(set.get(i), t[i]);
        return new HeldMultiLease(ctx, set, owner, t, ttl, deadline);
    }

    @Override
    void releaseOurs(int[] targets) {
        set.release(ctx, owner, targets, false);
    }

    @Override
    String waitResource() {
        int node = heldOnNode();
        synchronized (this) {
            if (node >= 0 && heldAt[node] > 0) return set.get(heldAt[node] - 1);
            for (int at : heldAt) if (at > 0) return set.get(at - 1);
        }
        return set.get(0);
    }

    @Override
    LockUnavailableException unavailable(int attempts, List<NodeOutcome> outcomes) {
        return new LockUnavailableException(set.resources(), attempts, failure(), outcomes);
    }

    @Override
    MembershipConflictException membershipConflict(int attempts, String node, String other, List<NodeOutcome> outcomes) {
        return new MembershipConflictException(set.resources(), attempts, node, ctx.membership().describeSelf(), other,
                outcomes);
    }
}
