package dev.redlock.internal.resp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A per-connection check run on every (re)connect of a command connection, after AUTH/SELECT/{@code INFO server} and
 * before the connection serves anything else. Completing normally passes; completing exceptionally fails the
 * connection: it is closed, every command sent to the node fails with a {@link RedisConnectionException} carrying the
 * failure's message until a later reconnect passes the check (reconnects go on with backoff).
 */
@FunctionalInterface
public interface ConnectionCheck {
    /** Passes every connection. */
    ConnectionCheck NONE = c -> CompletableFuture.completedFuture(null);

    CompletionStage<?> check(HandshakeConnection connection);

    /** This check, then {@code next} (only when this one passed). */
    default ConnectionCheck andThen(ConnectionCheck next) {
        return c -> check(c).thenCompose(x -> next.check(c));
    }
}
