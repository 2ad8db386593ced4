package dev.redlock.testkit;

import java.util.List;

/**
 * One Redis server as a test drives it: its port, its process (by pid) and fixture commands sent to it directly.
 * {@link RedisNode} is the process this kit starts; a server it did not start (an external node) implements the
 * process operations by refusing them.
 */
public interface RedisProcess extends AutoCloseable {
    /** The port fixtures reach it on. */
    int port();

    /** OS pid, -1 when not running (or not known). */
    long pid();

    boolean isRunning();

    boolean isPaused();

    /** Whether it writes an AOF with {@code appendfsync always}. */
    boolean persistent();

    /** SIGKILL (SIGCONT first if paused): it dies without a chance to write anything. */
    void kill();

    /** Starts again on the same port and directory; an AOF, if any, is replayed. */
    void restart();

    /** SIGSTOP: it keeps its sockets but answers nothing. */
    void pause();

    /** SIGCONT. */
    void resume();

    /** One fixture command (not for the product); the reply as {@link Resp#read} gives it. */
    String command(String... args);

    /**
     * One field of an {@code INFO} section, e.g. {@code info("server", "run_id")}.
     *
     * @throws IllegalStateException when the section has no such field
     */
    default String info(String section, String field) {
        for (String line : command("INFO", section).split("\r?\n")) {
            if (line.startsWith(field + ":")) return line.substring(field.length() + 1).trim();
        }
        throw new IllegalStateException("INFO " + section + " has no " + field);
    }

    /** The server's {@code run_id}: it changes with every start of the process. */
    default String runId() {
        return info("server", "run_id");
    }

    /** Keys matching a glob pattern (KEYS; fine for test data sets). */
    default List<String> keys(String pattern) {
        String reply = command("KEYS", pattern);
        return reply.isEmpty() ? List.of() : List.of(reply.split("\n"));
    }

    /** Stops the process by pid; idempotent. */
    @Override
    void close();
}
