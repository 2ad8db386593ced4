package dev.redlock;

import java.time.Duration;
import java.util.List;

/**
 * The {@link MultiLease} implementation: the keys of several resources under the machinery every lease shares
 * ({@link LeaseCore}: validity, expiry timer, watchdog, loss, release); one extension and one release script per
 * node for all of them.
 */
final class HeldMultiLease extends LeaseCore implements MultiLease {
    private final ResourceSet set;
    private final long[] tokens;     // per resource, in the set's order; null when fencing is off

    HeldMultiLease(RedlockContext ctx, ResourceSet set, String owner, long[] tokens, Duration ttl, long deadline) {
        super(ctx, owner, ttl, deadline);
        this.set = set;
        this.tokens = tokens;
    }

    @Override
    public List<String> resources() {
        return set.resources();
    }

    @Override
    public long fencingToken(String resource) {
        int i = set.indexOf(resource);
        if (i < 0) throw new IllegalArgumentException("'" + resource + "' is not one of this lease's resources " + set.label());
        if (tokens == null) throw new IllegalStateException("fencing is off in this RedlockConfig; no token was issued");
        return tokens[i];
    }

    @Override
    String label() {
        return set.label();
    }

    @Override
    String kind() {
        return "MultiLease";
    }

    @Override
    QuorumCall releaseOn(int[] targets) {
        return set.release(ctx, owner(), targets, true);
    }

    @Override
    LuaScript extendScript() {
        return LuaScript.EXTEND_ALL;
    }

    @Override
    Object[] extendCommand(Duration newTtl) {
        return set.extendCommand(ctx, owner(), newTtl);
    }

    @Override
    public void extend(Duration ttl) {
        extendNow(ttl);
    }

    @Override
    public MultiLease keepAlive() {
        startWatchdog();
        return this;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("MultiLease[");
        for (int i = 0; i < set.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(set.get(i));
            if (tokens != null) b.append('=').append(tokens[i]);
        }
        return b.append(", ").append(stateText()).append(']').toString();
    }
}
