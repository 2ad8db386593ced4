package dev.redlock.internal;

import dev.redlock.RedlockConfig;
import dev.redlock.internal.resp.RespEndpoint;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Internal, not API: the RESP endpoint (address, credentials, TLS stores, time limits) of one node of a
 * {@link RedlockConfig}, for the library's packages outside {@code dev.redlock} (the fenced store, diagnostics), so
 * they reach a node with exactly the semantics of a {@code Redlock}. {@code RedlockConfig} installs the resolver when
 * its class initializes, which has happened by the time anyone holds a config.
 */
public final class Endpoints {
    private static volatile BiFunction<RedlockConfig, Integer, RespEndpoint> resolver;

    private Endpoints() {}

    /** Called once, by {@code RedlockConfig}. */
    public static synchronized void install(BiFunction<RedlockConfig, Integer, RespEndpoint> r) {
        if (resolver != null) throw new IllegalStateException("already installed");
        resolver = Objects.requireNonNull(r);
    }

    /**
     * The endpoint of {@code config}'s node {@code node} (0-based).
     *
     * @throws IndexOutOfBoundsException when there is no such node
     */
    public static RespEndpoint of(RedlockConfig config, int node) {
        return resolver.apply(Objects.requireNonNull(config, "config"), node);
    }
}
