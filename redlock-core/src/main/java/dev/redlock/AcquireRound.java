package dev.redlock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One quorum round for one resource ({@link QuorumRound}): SET NX PX with the fence read on every node (ACQUIRE),
 * then (fencing on) token = the round's guess when every counted grant wrote it (one-round fencing), else
 * max(fences of the granting nodes) + 1 written back (WRITE_FENCE) to a quorum that still holds our owner value.
 */
final class AcquireRound extends QuorumRound<HeldLease> {
    private final String resource;
    private final boolean[] wroteGuess;      // the node wrote our guessed token with its grant (guarded by this)
    private long guess;
    private long token = -1;

    AcquireRound(RedlockContext ctx, String resource, Duration ttl) {
        super(ctx, ttl);
        this.resource = resource;
        this.wroteGuess = new boolean[ctx.nodes().size()];
    }

    @Override
    String label() {
        return resource;
    }

    @Override
    AcquireRound next() {
        return new AcquireRound(ctx, resource, ttl);
    }

    @Override
    LuaScript acquireScript() {
        return LuaScript.ACQUIRE;
    }

    @Override
    Object[] acquireCommand() {
        ResourceKeys.Keys k = ctx.keys(resource);
        ScriptArgs args = ctx.scriptArgs(ttl.toMillis(), ctx.knownQuarantineMs());
        guess = ctx.config().fencing() ? guess(ctx, ctx.tokenHints().get(resource)) : 0;
        Object[] c = NodeClient.scriptCommand(LuaScript.ACQUIRE, 3, 8);
        c[3] = k.lock();
        c[4] = k.fence();
        c[5] = ctx.markerKey();
        c[6] = owner;
        c[7] = args.ttl();
        c[8] = args.quarantine();
        c[9] = guess == 0 ? "0" : Long.toString(guess);
        c[10] = ctx.guessCapArg();
        c[11] = LuaScript.FENCE_RETENTION_ARG;
        c[12] = ctx.membership().field();
        c[13] = args.window();
        return c;
    }

    @Override
    long sawFences(int node, long status, List<?> reply) {
        long fence = AcquireReply.longAt(reply, 1);
        wroteGuess[node] = AcquireReply.longAt(reply, 5) == 1;
        // a quarantined node's fence is its memory floor, not a token anybody holds: no hint from it
        if (ctx.config().fencing() && (status == 0 || status == 1)) ctx.tokenHints().saw(resource, fence);
        return fence;
    }

    @Override
    String holder(List<?> reply) {
        return String.valueOf(reply.get(4));
    }

    @Override
    String heldDetail(List<?> reply) {
        return "held by another owner";
    }

    @Override
    CompletableFuture<HeldLease> fence(long deadline) {
        // One-round fencing. Every counted grant read a fence below our guess and wrote the guess (a node does not
        // write a guess beyond its own clock plus the cap), so its ACQUIRE script, in the same atomic step as the
        // grant, raised that node's fence to the guess: the guess is already written to a quorum of nodes holding
        // our owner value, and it exceeds every fence that quorum held, hence (quorums intersect) every earlier
        // token. Otherwise the second phase writes max + 1.
        if (guess > 0 && votes.maxGrantedFence() < guess && everyGrantWroteTheGuess()) {
            token = guess;
            return succeed(deadline);
        }
        token = votes.maxGrantedFence() + 1;
        ResourceKeys.Keys k = ctx.keys(resource);
        List<Object> keys = List.of(k.lock(), k.fence(), ctx.markerKey());
        Object[] writeFence = NodeClient.scriptCommand(LuaScript.WRITE_FENCE, keys, owner, Long.toString(token),
                LuaScript.FENCE_RETENTION_ARG);
        return writeFence(deadline, LuaScript.WRITE_FENCE, writeFence, Long.toString(token));
    }

    /** Whether every grant counted so far wrote the guessed token. */
    private boolean everyGrantWroteTheGuess() {
        synchronized (this) {
            return votes.everyGrant(wroteGuess);
        }
    }

    @Override
    HeldLease newLease(long deadline) {
        if (token > 0) ctx.tokenHints().saw(resource, token);
        return new HeldLease(ctx, resource, owner, token, ttl, deadline);
    }

    @Override
    void releaseOurs(int[] targets) {
        ctx.release(resource, owner, targets, false);
    }

    @Override
    String waitResource() {
        return resource;
    }

    @Override
    LockUnavailableException unavailable(int attempts, List<NodeOutcome> outcomes) {
        return new LockUnavailableException(resource, attempts, failure(), outcomes);
    }

    @Override
    MembershipConflictException membershipConflict(int attempts, String node, String other, List<NodeOutcome> outcomes) {
        return new MembershipConflictException(resource, attempts, node, ctx.membership().describeSelf(), other, outcomes);
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
    static long guess(RedlockContext ctx, long seen) {
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
}
