package dev.redlock.chaos.cluster;

import dev.redlock.testkit.Resp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A Redis master the harness did not start (e.g. one of docker-compose.redlock.yml's), known only by the URI clients
 * use, which is the address of its Toxiproxy proxy. Fixture commands ({@link #command}, {@link #keys}) go through that
 * URI, so they see the same network faults as the clients; process faults are impossible and throw
 * {@link UnsupportedOperationException} (scenarios that need them are skipped before they start).
 *
 * <p>URI: {@code redis://[[user]:password@]host[:port][/db]} (port 6379 by default); {@code rediss://} is refused.
 */
public final class ExternalServer implements ServerProcess {
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
        URI u;
        try {
            u = URI.create(uri.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--nodes: '" + redact(uri) + "' is not a URI", e);
        }
        if (!"redis".equalsIgnoreCase(u.getScheme())) {
            throw new IllegalArgumentException("--nodes: '" + redact(uri) + "' must be a redis:// URI"
                    + ("rediss".equalsIgnoreCase(u.getScheme()) ? " (TLS is not supported by the chaos harness)" : ""));
        }
        if (u.getHost() == null) throw new IllegalArgumentException("--nodes: '" + redact(uri) + "' has no host");
        String user = null;
        String pass = null;
        if (u.getRawUserInfo() != null) {
            String info = u.getRawUserInfo();
            int colon = info.indexOf(':');
            if (colon < 0) {
                pass = decode(info);
            } else {
                user = colon == 0 ? null : decode(info.substring(0, colon));
                pass = decode(info.substring(colon + 1));
            }
        }
        int db = 0;
        String path = u.getPath();
        if (path != null && path.length() > 1) {
            try {
                db = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--nodes: '" + redact(uri) + "' has a bad database " + path, e);
            }
        }
        String host = u.getHost().startsWith("[") ? u.getHost().substring(1, u.getHost().length() - 1) : u.getHost();
        return new ExternalServer(uri.trim(), host, u.getPort() == -1 ? 6379 : u.getPort(), user, pass, db);
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
        return new UnsupportedOperationException(what + " of external node " + redact(uri)
                + ": the harness did not start it and has no control over its process");
    }

    @Override
    public String command(String... args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 2000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            int setup = 0;
            if (password != null) {
                Resp.write(out, user == null ? new String[] {"AUTH", password} : new String[] {"AUTH", user, password});
                setup++;
            }
            if (db != 0) {
                Resp.write(out, "SELECT", Integer.toString(db));
                setup++;
            }
            Resp.write(out, args);
            out.flush();
            for (int i = 0; i < setup; i++) {
                String r = Resp.read(in);
                if (r.startsWith("ERR:")) throw new IOException("AUTH/SELECT refused: " + r);
            }
            return Resp.read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("command " + args[0] + " on external node " + redact(uri) + " failed", e);
        }
    }

    @Override
    public List<String> keys(String pattern) {
        String reply = command("KEYS", pattern);
        if (reply.isEmpty()) return List.of();
        return List.of(reply.split("\n"));
    }

    /** Nothing to stop: the node is not the harness's. */
    @Override
    public void close() {
        // not ours
    }

    @Override
    public String toString() {
        return "ExternalServer[" + redact(uri) + "]";
    }

    /** The URI without its password. */
    static String redact(String uri) {
        return uri.replaceFirst("//([^@/]*):[^@/]*@", "//$1:***@").replaceFirst("//([^:@/]+)@", "//***@");
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
