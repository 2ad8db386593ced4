package dev.redlock;

import dev.redlock.internal.Failures;
import dev.redlock.internal.resp.RedisErrorException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link Redlock#markNodesFresh}: writes the "never granted a lock" memory marker on every node that has none, all
 * nodes in parallel, each retried while the deadline leaves room.
 */
final class FreshMarking {
    private FreshMarking() {}

    /** How many nodes were newly marked; throws when a node could not be reached (reached nodes stay marked). */
    static int markAll(RedlockContext ctx) {
        ctx.checkMayBlock("Redlock.markNodesFresh()", "a thread of your own");
        int marked = 0;
        List<String> failures = new ArrayList<>();
        long deadline = deadline(ctx);
        List<CompletableFuture<Object>> sent = sendAll(ctx, deadline);
        for (int i = 0; i < sent.size(); i++) {
            try {
                Object r = sent.get(i).get(Math.max(0, deadline - ctx.ticker().nanoTime()), TimeUnit.NANOSECONDS);
                if (((Number) r).longValue() == 1) marked++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedlockException("interrupted while marking nodes fresh", e);
            } catch (ExecutionException | TimeoutException e) {
                failures.add(ctx.node(i).name() + ": " + Failures.describe(e));
            }
        }
        if (!failures.isEmpty()) throw new RedlockException("could not mark every node fresh: " + failures);
        return marked;
    }

    /**
     * {@link #markAll} without blocking, for code on a single simulated thread: how many nodes were newly marked, or
     * a failure naming the first node that could not be marked (reached nodes stay marked).
     */
    static CompletableFuture<Integer> markAllAsync(RedlockContext ctx) {
        CompletableFuture<Integer> marked = CompletableFuture.completedFuture(0);
        for (CompletableFuture<Object> one : sendAll(ctx, deadline(ctx))) {
            marked = marked.thenCombine(one, (sum, r) -> sum + (((Number) r).longValue() == 1 ? 1 : 0));
        }
        return marked;
    }

    /** An administrative call, not a lock round: room for a slow or loaded machine. */
    private static long deadline(RedlockContext ctx) {
        return ctx.ticker().nanoTime() + TimeUnit.MILLISECONDS.toNanos(
                10 * ctx.config().nodeTimeout().toMillis() + NodeClient.connectTimeoutMs(ctx.config()));
    }

    /** MARK_FRESH sent to every node in parallel, in node order. */
    private static List<CompletableFuture<Object>> sendAll(RedlockContext ctx, long deadline) {
        List<Object> keys = List.of(ctx.markerKey());
        List<CompletableFuture<Object>> sent = new ArrayList<>();
        for (NodeClient n : ctx.nodes()) sent.add(markFresh(ctx, n, keys, deadline));
        return sent;
    }

    /**
     * MARK_FRESH on one node. SET NX is idempotent, so a failed attempt (a connection not made in time on a cold or
     * loaded start) is sent again 100 ms later while the deadline leaves room; an error reply is final.
     */
    private static CompletableFuture<Object> markFresh(RedlockContext ctx, NodeClient n, List<Object> keys, long deadline) {
        return n.eval(LuaScript.MARK_FRESH, keys).exceptionallyCompose(e -> {
            boolean errorReply = Failures.unwrap(e) instanceof RedisErrorException;
            if (errorReply || deadline - ctx.ticker().nanoTime() < TimeUnit.MILLISECONDS.toNanos(200)) {
                return CompletableFuture.failedFuture(e);
            }
            CompletableFuture<Object> again = new CompletableFuture<>();
            try {
                ctx.scheduler().schedule(() -> markFresh(ctx, n, keys, deadline).whenComplete((r, x) -> {
                    if (x != null) again.completeExceptionally(x);
                    else again.complete(r);
                }), 100, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closed) {
                return CompletableFuture.failedFuture(e);
            }
            return again;
        });
    }
}
