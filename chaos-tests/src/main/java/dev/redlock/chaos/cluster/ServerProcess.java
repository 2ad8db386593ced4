package dev.redlock.chaos.cluster;

import java.util.List;

/**
 * One redis-server process of a {@link ChaosCluster}, managed by pid. Reached directly (never through a proxy) by
 * the nemesis and by fixtures; clients only ever get proxy addresses.
 */
public interface ServerProcess extends AutoCloseable {
    /** The node's own port on 127.0.0.1 (the proxy's upstream). */
    int port();

    /** OS pid, -1 when not running. */
    long pid();

    boolean isRunning();

    boolean isPaused();

    /** Whether the node writes an AOF with {@code appendfsync always}. */
    boolean persistent();

    /** SIGKILL (SIGCONT first if paused). */
    void kill();

    /** Starts again on the same port and directory; an AOF, if any, is replayed. */
    void restart();

    /** SIGSTOP. */
    void pause();

    /** SIGCONT. */
    void resume();

    /** One command, first reply line ("ERR:..." for an error reply). */
    String command(String... args);

    /** KEYS pattern. */
    List<String> keys(String pattern);

    /** Stops the process by pid; idempotent. */
    @Override
    void close();
}
