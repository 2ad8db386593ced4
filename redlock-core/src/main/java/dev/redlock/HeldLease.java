package dev.redlock;

import java.time.Duration;
import java.util.List;

/**
 * The {@link Lease} implementation: one resource's keys under the machinery every lease shares ({@link LeaseCore}:
 * validity, expiry timer, watchdog, loss, release).
 */
final class HeldLease extends LeaseCore implements Lease {
    private final String resource;
    private final long token;

    HeldLease(RedlockContext ctx, String resource, String owner, long token, Duration ttl, long deadline) {
        super(ctx, owner, ttl, deadline);
        this.resource = resource;
        this.token = token;
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public long fencingToken() {
        if (token < 0) throw new IllegalStateException("fencing is off in this RedlockConfig; no token was issued");
        return token;
    }

    @Override
    String label() {
        return resource;
    }

    /** The Redlock's shared state this lease belongs to. */
    RedlockContext context() {
        return ctx;
    }

    @Override
    String kind() {
        return "Lease";
    }

    @Override
    QuorumCall releaseOn(int[] targets) {
        return ctx.release(resource, owner(), targets);
    }

    @Override
    LuaScript extendScript() {
        return LuaScript.EXTEND;
    }

    @Override
    Object[] extendCommand(Duration newTtl) {
        List<Object> keys = List.of(ctx.lockKey(resource), ctx.markerKey());
        return NodeClient.scriptCommand(LuaScript.EXTEND, keys, owner(), Long.toString(newTtl.toMillis()),
                ctx.membership().field(), Long.toString(Membership.windowMs(newTtl.toMillis(), ctx.knownQuarantineMs())));
    }

    @Override
    public void extend(Duration ttl) {
        extendNow(ttl);
    }

    @Override
    public Lease keepAlive() {
        startWatchdog();
        return this;
    }

    @Override
    public String toString() {
        return "Lease[" + resource + ", token=" + (token < 0 ? "none" : token) + ", " + stateText() + "]";
    }
}
