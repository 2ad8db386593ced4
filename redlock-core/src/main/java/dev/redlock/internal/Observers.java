package dev.redlock.internal;

import dev.redlock.Redlock;
import dev.redlock.RedlockListener;
import java.util.Objects;
import java.util.function.Function;

/**
 * Internal, not API: the {@link RedlockListener}s of a {@link Redlock} as one listener, for the library's packages
 * outside {@code dev.redlock} ({@code dev.redlock.election} reports leadership changes through it). {@code Redlock}
 * installs the resolver when its class initializes, which has happened by the time anyone holds a Redlock.
 */
public final class Observers {
    private static volatile Function<Redlock, RedlockListener> resolver;

    private Observers() {}

    /** Called once, by {@code Redlock}. */
    public static synchronized void install(Function<Redlock, RedlockListener> r) {
        if (resolver != null) throw new IllegalStateException("already installed");
        resolver = Objects.requireNonNull(r);
    }

    /** Every listener registered on {@code redlock}, now and later, as one (it never throws). */
    public static RedlockListener of(Redlock redlock) {
        return resolver.apply(Objects.requireNonNull(redlock, "redlock"));
    }
}
