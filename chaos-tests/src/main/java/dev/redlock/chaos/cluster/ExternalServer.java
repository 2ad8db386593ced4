package dev.redlock.chaos.cluster;

import dev.redlock.internal.RedisUri;
import dev.redlock.testkit.RedisProcess;
import dev.redlock.testkit.Resp;
import java.io.UncheckedIOException;

/**
 * A Redis master the harness did not start (e.g. one of docker-compose.redlock.yml's), known only by the URI clients
 * use, which is the address of its Toxiproxy proxy. Fixture commands ({@link #command}, {@link #keys}) go through that
 * URI, so they see the same network faults as the clients; process faults are impossible and throw
 * {@link UnsupportedOperationException} (scenarios that need them are skipped before they start).
 *
 * <p>URI: {@code redis://[[user]:password@]host[:port][/db]} (port 6379 by default); {@code rediss://} is refused.
 */
public final class ExternalServer implements RedisProcess {
    private final String uri;
    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final int db;

    private ExternalServer(String uri, String host, int port, String user, String password, int db) {
        this.uri = uri;
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.db = db;
    }

    /**
     * Parses a node URI.
     *
     * @throws IllegalArgumentException when it is not a {@code redis://host[:port]} URI
     */
    public static ExternalServer of(String uri) {
        RedisUri u = RedisUri.parse(uri, "--nodes");
        if (u.tls()) {
            throw new IllegalArgumentException("--nodes: '" + RedisUri.redact(uri) + "' must be a redis:// URI (TLS is not "
                    + "supported by the chaos harness)");
        }
        return new ExternalServer(uri.trim(), u.host(), u.port(), u.username(), u.password(), u.database());
    }

    /** The URI as given: what clients connect to. */
    public String uri() {
        return uri;
    }

    public String host() {
        return host;
    }

    /** The port clients connect to (the proxy's listen port, not the node's own). */
    @Override
    public int port() {
        return port;
    }

    @Override public long pid() { return -1; }
    /** Assumed up: the harness cannot know otherwise (a node down looks like a network fault). */
    @Override public boolean isRunning() { return true; }
    @Override public boolean isPaused() { return false; }
    /** Unknown; reported as false. */
    @Override public boolean persistent() { return false; }

    @Override
    public void kill() {
        throw unsupported("kill -9");
    }

    @Override
    public void restart() {
        throw unsupported("restart");
    }

    @Override
    public void pause() {
        throw unsupported("SIGSTOP");
    }

    @Override
    public void resume() {
        throw unsupported("SIGCONT");
    }

    private UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(what + " of external node " + RedisUri.redact(uri)
                + ": the harness did not start it and has no control over its process");
    }

    @Override
    public String command(String... args) {
        try {
            return Resp.command(host, port, user, password, db, args);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("command " + args[0] + " on external node " + RedisUri.redact(uri) + " failed",
                    e.getCause());
        }
    }

    /** Nothing to stop: the node is not the harness's. */
    @Override
    public void close() {
        // not ours
    }

    @Override
    public String toString() {
        return "ExternalServer[" + RedisUri.redact(uri) + "]";
    }

}
