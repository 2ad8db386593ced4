package dev.redlock.spring;

import dev.redlock.Lease;

/**
 * The lease of the {@link Locked} method running on the current thread: {@code LockedContext.lease().fencingToken()}
 * is the token to pass to what the method writes.
 *
 * <p>Set for the method's duration on the thread that called it. In nested {@code @Locked} methods it is the
 * innermost one's lease, and the outer one's again once the inner returns. Outside any {@code @Locked} method (also
 * on a thread the method started) there is none. Thread-confined: pass the {@link Lease} itself to other threads.
 */
public final class LockedContext {
    private static final ThreadLocal<Lease> CURRENT = new ThreadLocal<>();

    private LockedContext() {}

    /**
     * The lease of the innermost {@link Locked} method running on this thread.
     *
     * @throws IllegalStateException outside a {@code @Locked} method
     */
    public static Lease lease() {
        Lease l = CURRENT.get();
        if (l == null) {
            throw new IllegalStateException("LockedContext.lease() is only available inside a @Locked method, on the "
                    + "thread that called it (" + Thread.currentThread().getName() + " is in none)");
        }
        return l;
    }

    /** Makes {@code lease} current and returns the one it replaces (null when none). */
    static Lease enter(Lease lease) {
        Lease outer = CURRENT.get();
        CURRENT.set(lease);
        return outer;
    }

    /** Restores what {@link #enter} returned. */
    static void exit(Lease outer) {
        if (outer == null) CURRENT.remove();
        else CURRENT.set(outer);
    }
}
