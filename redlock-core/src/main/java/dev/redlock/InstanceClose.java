package dev.redlock;

import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Redlock#close()} once the instance is marked closed: ends pending acquisitions, waits (bounded) for the
 * rounds in flight and the releases of live leases, then shuts down what the instance created.
 */
final class InstanceClose {
    // logged under Redlock's name, as before this code moved here
    private static final Logger log = LoggerFactory.getLogger(Redlock.class);

    private InstanceClose() {}

    /** Closes {@code ctx}'s work and resources; {@code ownedGroup} (may be null) is the event loop it created. */
    static void run(RedlockContext ctx, EventLoopGroup ownedGroup) {
        // pending acquisitions end now; a round still in flight releases whatever it obtains (waited for below)
        for (var p : List.copyOf(ctx.pending().entrySet())) {
            p.getKey().completeExceptionally(new RedlockException("Redlock was closed while acquiring '" + p.getValue() + "'"));
        }
        List<CompletableFuture<?>> releases = new ArrayList<>(ctx.inFlight());
        for (LeaseCore l : List.copyOf(ctx.live())) releases.add(l.releaseOnClose());
        awaitCleanups(ctx, releases, ctx.config().nodeTimeout().toMillis() * 2 + 1000);
        ctx.releases().close();
        if (ctx.seams().scheduler() == null) ctx.scheduler().shutdownNow();
        if (ctx.seams().events() == null) ctx.events().shutdown();
        CompletableFuture<?>[] closing = ctx.nodes().stream().map(NodeClient::shutdown).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(closing).get(NodeClient.connectTimeoutMs(ctx.config()) + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("not every node connection closed cleanly", e);
        }
        if (ownedGroup != null) ownedGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    /** Waits for the given work, then for the answers and releases the rounds left in flight, within the bound. */
    private static void awaitCleanups(RedlockContext ctx, List<CompletableFuture<?>> first, long boundMillis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMillis);
        List<CompletableFuture<?>> work = first;
        while (!work.isEmpty()) {
            try {
                CompletableFuture.allOf(work.toArray(CompletableFuture[]::new))
                        .get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                log.debug("a release on close failed", e);
            } catch (TimeoutException e) {
                log.debug("not every lease was released on close", e);
                return;
            }
            work = ctx.cleanups();
        }
    }
}
