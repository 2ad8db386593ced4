package dev.redlock.internal;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.RedlockListener;
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

    /** The monotonic clock {@code redlock} times its leases' validity on. */
    public static Ticker ticker(Redlock redlock) {
        return bridge.ticker(Objects.requireNonNull(redlock, "redlock"));
    }
}
