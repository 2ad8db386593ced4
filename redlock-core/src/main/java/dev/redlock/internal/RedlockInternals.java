package dev.redlock.internal;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.RedlockListener;
import dev.redlock.spi.NodeTransport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Objects;

/**
 * Internal, not API: what the library's packages outside {@code dev.redlock} need of a {@link Redlock} beyond its
 * API ({@code dev.redlock.election} reports leadership changes to its listeners and times terms on its clock; the
 * chaos harness matches the owner values it reads on the nodes to leases).
 * {@code Redlock} installs the bridge when its class initializes, which has happened by the time anyone holds a
 * Redlock. Anything here may change or disappear in any release; applications must not use it.
 */
public final class RedlockInternals {
    private static volatile Bridge bridge;

    private RedlockInternals() {}

    /** {@code Redlock}'s side of this bridge. */
    public interface Bridge {
        RedlockListener listeners(Redlock redlock);

        Ticker ticker(Redlock redlock);

        String ownerValue(Lease lease);

        void checkMayBlock(Redlock redlock, String method, String alternative);

        Redlock create(RedlockConfig config, Seams seams);

        Redlock create(RedlockConfig config, List<? extends NodeTransport> transports, Seams seams);

        CompletableFuture<Boolean> extendAsync(Lease lease, Duration ttl);

        CompletableFuture<Lease> tryAcquireAsync(Redlock redlock, String resource, Duration ttl);

        CompletableFuture<Integer> markNodesFreshAsync(Redlock redlock);
    }

    /** Called once, by {@code Redlock}. */
    public static synchronized void install(Bridge b) {
        if (bridge != null) throw new IllegalStateException("already installed");
        bridge = Objects.requireNonNull(b);
    }

    /** Every listener registered on {@code redlock}, now and later, as one (it never throws). */
    public static RedlockListener listeners(Redlock redlock) {
        return bridge.listeners(Objects.requireNonNull(redlock, "redlock"));
    }

    /**
     * The random owner value a lease of a {@link Redlock} wrote under its key on the nodes (hex; deliberately not on
     * {@link Lease}); "" for any other {@code Lease}.
     */
    public static String ownerValue(Lease lease) {
        return bridge.ownerValue(Objects.requireNonNull(lease, "lease"));
    }

    /**
     * Throws {@link IllegalStateException} naming {@code method} and {@code alternative} when called on
     * {@code redlock}'s I/O thread, where a blocking call would wait for that very thread.
     */
    public static void checkMayBlock(Redlock redlock, String method, String alternative) {
        bridge.checkMayBlock(Objects.requireNonNull(redlock, "redlock"), method, alternative);
    }

    /**
     * {@code Redlock.create(config)} with the given {@link Seams} (clocks, executors, randomness): for the chaos
     * harness (a client whose clock is stepped, a twin with a guard off). Preflight runs as usual.
     */
    public static Redlock create(RedlockConfig config, Seams seams) {
        return bridge().create(Objects.requireNonNull(config, "config"), Objects.requireNonNull(seams, "seams"));
    }

    /** {@code Redlock.create(config, transports)} with the given {@link Seams}: the deterministic simulator's path. */
    public static Redlock create(RedlockConfig config, List<? extends NodeTransport> transports, Seams seams) {
        return bridge().create(Objects.requireNonNull(config, "config"), Objects.requireNonNull(transports, "transports"),
                Objects.requireNonNull(seams, "seams"));
    }

    /** The bridge, installed once {@code Redlock} is initialized (which this forces). */
    private static Bridge bridge() {
        Bridge b = bridge;
        if (b != null) return b;
        try {
            Class.forName("dev.redlock.Redlock", true, RedlockInternals.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("dev.redlock.Redlock is missing", e);
        }
        return bridge;
    }

    /**
     * One extension round of {@code lease} (a lease of a {@link Redlock}) to {@code ttl}, without blocking: true when
     * a quorum re-set the TTL before the validity ended (the new validity counts from the round's start), false
     * otherwise (the lease is not marked lost: {@link Lease#extend} does that). What the blocking
     * {@link Lease#extend} runs, for code on a single simulated thread.
     *
     * @throws IllegalArgumentException when {@code lease} is not a Redlock's, or on a bad TTL
     */
    public static CompletableFuture<Boolean> extendAsync(Lease lease, Duration ttl) {
        return bridge().extendAsync(Objects.requireNonNull(lease, "lease"), ttl);
    }

    /**
     * One acquire round without retries, without blocking: {@link Redlock#tryAcquire}'s round; the future fails with
     * a {@code LockUnavailableException} when the round did not win. Cancelling it abandons the round.
     */
    public static CompletableFuture<Lease> tryAcquireAsync(Redlock redlock, String resource, Duration ttl) {
        return bridge().tryAcquireAsync(Objects.requireNonNull(redlock, "redlock"), resource, ttl);
    }

    /**
     * {@link Redlock#markNodesFresh} without blocking, for code on a single simulated thread: how many nodes were
     * newly marked; fails when a node could not be marked (the nodes reached stay marked).
     */
    public static CompletableFuture<Integer> markNodesFreshAsync(Redlock redlock) {
        return bridge().markNodesFreshAsync(Objects.requireNonNull(redlock, "redlock"));
    }

    /** The monotonic clock {@code redlock} times its leases' validity on. */
    public static Ticker ticker(Redlock redlock) {
        return bridge.ticker(Objects.requireNonNull(redlock, "redlock"));
    }
}
