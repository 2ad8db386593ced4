package dev.redlock.internal.resp;

import java.util.concurrent.CompletableFuture;

/**
 * One freshly opened connection during its handshake, after AUTH, SELECT and {@code INFO server}, before it serves
 * other commands: what a {@link ConnectionCheck} can see and run.
 */
public interface HandshakeConnection {
    /** Runs a command on this very connection (reply types as {@link RespClient#command(Object...)}). */
    CompletableFuture<Object> command(Object... args);

    /** {@code run_id} from this connection's {@code INFO server}: identifies the server process. */
    String runId();

    /** {@code redis_version} from this connection's {@code INFO server}. */
    String redisVersion();

    /** The node's redacted name. */
    String endpoint();
}
