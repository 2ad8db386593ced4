package dev.redlock.spi;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * For adapter modules, not applications: how a {@code Redlock} (or a {@code FencedRedisStore}) talks to one Redis
 * node when it does not use the library's own transport, e.g. {@code redlock-redisson} over a client the
 * application already manages. Applications use {@code Redlock.create(RedlockConfig)}.
 *
 * <p>What the library relies on: {@link #command} never blocks and never retries (the quorum round is the retry
 * unit, and the library times every call out itself); replies are converted to {@code Long} (integers),
 * {@code String} (simple and bulk strings), {@code List<Object>} (arrays, recursively) and {@code null} (nil); a
 * Redis error reply fails the future with an exception whose message is the error text (e.g. starting with
 * {@code NOSCRIPT} or {@code WRONGTYPE}); a reply timeout of the transport's own fails it with a
 * {@link java.util.concurrent.TimeoutException}. A transport cannot bind the server's {@code run_id} to the
 * connection a command is written on, so the library never asks it to (scripts read the node's identity
 * themselves). Implementations must be thread-safe.
 */
public interface NodeTransport {
    /** Sends one command (arguments as given, UTF-8); see the class comment for the reply types. */
    CompletableFuture<Object> command(String... args);

    /**
     * Adds a listener for messages published on {@code channel}; completes once subscribed. Listeners must not
     * block. A transport that cannot subscribe may fail the future: waiters then fall back to polling.
     */
    CompletableFuture<Void> subscribe(String channel, Consumer<String> listener);

    /** Removes a listener added by {@link #subscribe} (the same instance). */
    void unsubscribe(String channel, Consumer<String> listener);

    /** Called once by {@code Redlock.close()}; a transport over a client the application manages leaves it open. */
    void close();
}
