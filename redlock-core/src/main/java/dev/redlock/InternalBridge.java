package dev.redlock;

import dev.redlock.internal.RedlockInternals;
import dev.redlock.internal.Seams;
import dev.redlock.internal.Ticker;
import dev.redlock.internal.resp.ConnectionCheck;
import dev.redlock.spi.NodeTransport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code Redlock}'s side of {@link RedlockInternals}: what the library's other packages, the chaos harness and the
 * deterministic simulator need of a Redlock beyond its API. Installed once, when {@link Redlock} initializes.
 */
final class InternalBridge implements RedlockInternals.Bridge {
    @Override
    public RedlockListener listeners(Redlock redlock) {
        return redlock.context().listeners();
    }

    @Override
    public Ticker ticker(Redlock redlock) {
        return redlock.context().ticker();
    }

    @Override
    public String ownerValue(Lease lease) {
        return lease instanceof HeldLease h ? h.owner() : "";
    }

    @Override
    public void checkMayBlock(Redlock redlock, String method, String alternative) {
        redlock.context().checkMayBlock(method, alternative);
    }

    @Override
    public Redlock create(RedlockConfig config, Seams seams) {
        return Redlock.create(config, seams, ConnectionCheck.NONE);
    }

    @Override
    public Redlock create(RedlockConfig config, List<? extends NodeTransport> transports, Seams seams) {
        return Redlock.create(config, transports, seams);
    }

    @Override
    public CompletableFuture<Boolean> extendAsync(Lease lease, Duration ttl) {
        if (!(lease instanceof HeldLease h)) throw new IllegalArgumentException("not a lease of a Redlock: " + lease);
        return h.extendAsync(h.context().checkTtl(ttl), RedlockListener.ExtendTrigger.MANUAL);
    }

    @Override
    public CompletableFuture<Lease> tryAcquireAsync(Redlock redlock, String resource, Duration ttl) {
        return redlock.startAsync(resource, ttl, 1, RedlockListener.AcquireMode.TRY);
    }

    @Override
    public CompletableFuture<Integer> markNodesFreshAsync(Redlock redlock) {
        return FreshMarking.markAllAsync(redlock.context());
    }
}
