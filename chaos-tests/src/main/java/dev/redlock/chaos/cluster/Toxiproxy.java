package dev.redlock.chaos.cluster;

import dev.redlock.chaos.proxy.ToxiproxyServer;
import dev.redlock.testkit.Executables;
import dev.redlock.testkit.Ports;
import dev.redlock.testkit.Sleep;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Toxiproxy server, found or started by the provider chain, driven only through toxiproxy-java.
 *
 * <p>Provider chain, first that works wins:
 * <ol>
 *   <li>{@code TOXIPROXY_URL} (environment, or system property {@code toxiproxy.url}): an existing server. It must
 *       run on this machine: its proxies dial the Redis nodes on {@code 127.0.0.1}.</li>
 *   <li>A {@code toxiproxy-server} executable on the {@code PATH}: started on a free loopback port, stopped by pid
 *       on {@link #close()}.</li>
 *   <li>Testcontainers' Toxiproxy image when a Docker engine answers (checked quickly: no {@code DOCKER_HOST} and no
 *       Docker socket means no engine, without loading Testcontainers). See {@link ContainerToxiproxy} for why the
 *       container has to share the host's network and what happens when that fails.</li>
 *   <li>The in-JVM {@link ToxiproxyServer} (always available).</li>
 * </ol>
 * System property {@code chaos.toxiproxy} = {@code env | binary | container | in-jvm} forces one provider (an error
 * if it is not available); {@code auto} (default) runs the chain. {@link #mode()} says which one ran and
 * {@link #skipped()} why the earlier ones did not.
 *
 * <p>Thread-safe (toxiproxy-java's client is stateless). {@link #close()} stops what this instance started and
 * deletes nothing on a server it did not start (proxy owners delete their own proxies).
 */
public final class Toxiproxy implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Toxiproxy.class);
    private static volatile Toxiproxy shared;

    /** Which provider of the chain is running. */
    public enum Kind { ENV, BINARY, CONTAINER, IN_JVM }

    private final Kind kind;
    private final String mode;
    private final List<String> skipped;
    private final ToxiproxyClient client;
    private final String apiHost;
    private final int apiPort;
    private final AutoCloseable stopper;

    private Toxiproxy(Kind kind, String mode, List<String> skipped, String apiHost, int apiPort, AutoCloseable stopper) {
        this.kind = kind;
        this.mode = mode;
        this.skipped = List.copyOf(skipped);
        this.apiHost = apiHost;
        this.apiPort = apiPort;
        this.client = new ToxiproxyClient(apiHost, apiPort);
        this.stopper = stopper;
    }

    /**
     * One server for the whole JVM, started by the chain on first use and stopped by a shutdown hook. Scenario runs
     * share it; each cluster creates and deletes its own uniquely named proxies.
     */
    public static Toxiproxy shared() {
        Toxiproxy t = shared;
        if (t == null) {
            synchronized (Toxiproxy.class) {
                if (shared == null) {
                    shared = start();
                    Toxiproxy s = shared;
                    Runtime.getRuntime().addShutdownHook(new Thread(s::close, "toxiproxy-stopper"));
                }
                t = shared;
            }
        }
        return t;
    }

    /** Runs the provider chain (or the provider forced by {@code chaos.toxiproxy}). */
    public static Toxiproxy start() {
        String forced = System.getProperty("chaos.toxiproxy", "auto").trim().toLowerCase(Locale.ROOT);
        List<String> skipped = new ArrayList<>();
        if (forced.equals("auto") || forced.equals("env")) {
            String url = System.getProperty("toxiproxy.url", System.getenv("TOXIPROXY_URL"));
            if (url != null && !url.isBlank()) return fromUrl(url.trim(), "env TOXIPROXY_URL=" + url.trim(), skipped);
            skipped.add("env: TOXIPROXY_URL not set");
            if (forced.equals("env")) throw new IllegalStateException("chaos.toxiproxy=env but TOXIPROXY_URL is not set");
        }
        if (forced.equals("auto") || forced.equals("binary")) {
            Path bin = Executables.onPath("toxiproxy-server");
            if (bin != null) {
                try {
                    return startBinary(bin, skipped);
                } catch (RuntimeException e) {
                    if (forced.equals("binary")) throw e;
                    skipped.add("binary: " + bin + " did not start: " + e.getMessage());
                }
            } else {
                skipped.add("binary: no toxiproxy-server on PATH");
                if (forced.equals("binary")) throw new IllegalStateException("chaos.toxiproxy=binary but no toxiproxy-server on PATH");
            }
        }
        if (forced.equals("auto") || forced.equals("container")) {
            String why = ContainerToxiproxy.whyUnavailable(Duration.ofSeconds(10));
            if (why == null) {
                try {
                    ContainerToxiproxy c = ContainerToxiproxy.start(Ports.free());
                    return new Toxiproxy(Kind.CONTAINER, "testcontainers " + c.image() + " (host network)", skipped,
                            "127.0.0.1", c.apiPort(), c);
                } catch (RuntimeException e) {
                    why = "the container could not serve proxies to host processes (" + e.getMessage()
                            + "); not supported with the container, using in-JVM";
                }
            }
            skipped.add("container: " + why);
            if (forced.equals("container")) throw new IllegalStateException("chaos.toxiproxy=container: " + why);
        }
        ToxiproxyServer server = ToxiproxyServer.start("127.0.0.1", 0);
        URI u = URI.create(server.url());
        Toxiproxy t = new Toxiproxy(Kind.IN_JVM, "in-jvm " + server.url(), skipped, u.getHost(), u.getPort(), server);
        log.info("toxiproxy: {} (skipped: {})", t.mode, skipped);
        return t;
    }

    /**
     * The chain's first provider ({@link Kind#ENV}) for a URL given explicitly, e.g. the CLI's {@code --toxiproxy}:
     * an existing server this instance neither starts nor stops. {@link #mode()} is {@code env <origin> <url>}.
     *
     * @throws UncheckedIOException when the server does not answer
     */
    public static Toxiproxy connect(String url, String origin) {
        String u = url.trim();
        return fromUrl(u, "env " + origin + " " + u + " (external server)", List.of());
    }

    private static Toxiproxy fromUrl(String url, String mode, List<String> skipped) {
        URI u;
        try {
            u = URI.create(url.contains("://") ? url : "http://" + url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + url + "' is not a Toxiproxy URL (e.g. http://127.0.0.1:8474)", e);
        }
        if (u.getHost() == null) {
            throw new IllegalArgumentException("'" + url + "' is not a Toxiproxy URL (e.g. http://127.0.0.1:8474)");
        }
        int port = u.getPort() == -1 ? 8474 : u.getPort();
        Toxiproxy t = new Toxiproxy(Kind.ENV, mode, skipped, u.getHost(), port, () -> { });
        try {
            t.client.version();
        } catch (IOException e) {
            throw new UncheckedIOException("Toxiproxy at " + url + " does not answer", e);
        }
        return t;
    }

    private static Toxiproxy startBinary(Path bin, List<String> skipped) {
        int port = Ports.free();
        Process p;
        try {
            Path logFile = Files.createTempFile("toxiproxy-server-", ".log");
            p = new ProcessBuilder(bin.toString(), "-host", "127.0.0.1", "-port", Integer.toString(port))
                    .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process proc = p;
        AutoCloseable stop = () -> {
            proc.destroyForcibly();
            proc.waitFor(10, TimeUnit.SECONDS);
        };
        Toxiproxy t = new Toxiproxy(Kind.BINARY, "binary " + bin + " pid " + p.pid() + " port " + port, skipped,
                "127.0.0.1", port, stop);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && p.isAlive()) {
            try {
                t.client.version();
                return t;
            } catch (IOException e) {
                Sleep.millis(20);
            }
        }
        t.close();
        throw new IllegalStateException("toxiproxy-server did not answer on port " + port);
    }

    /**
     * Whether {@link #switchUpstreamKeepingConnections} is available: only on the in-JVM server (a harness-only
     * mode; Toxiproxy itself drops a proxy's connections when its upstream changes).
     */
    public boolean canKeepConnections() {
        return stopper instanceof ToxiproxyServer;
    }

    /**
     * Proxy {@code proxy}'s upstream becomes {@code upstream} and its open client connections are kept and moved
     * there ({@link ToxiproxyServer#switchUpstream}); returns once they are, with how many were moved.
     *
     * @throws UnsupportedOperationException when not {@linkplain #canKeepConnections available}
     */
    public int switchUpstreamKeepingConnections(String proxy, String upstream) {
        if (!(stopper instanceof ToxiproxyServer server)) {
            throw new UnsupportedOperationException("only the in-JVM Toxiproxy moves open connections to a new "
                    + "upstream; this is " + mode);
        }
        return server.switchUpstream(proxy, upstream);
    }

    /** The toxiproxy-java client for this server. */
    public ToxiproxyClient client() {
        return client;
    }

    public Kind kind() {
        return kind;
    }

    /** Which provider ran, e.g. {@code in-jvm http://127.0.0.1:40123}. */
    public String mode() {
        return mode;
    }

    /** Why each earlier provider of the chain was not used. */
    public List<String> skipped() {
        return skipped;
    }

    /** Host the proxies listen on (clients connect here). */
    public String listenHost() {
        return "127.0.0.1";
    }

    /** Host the proxies dial to reach the Redis nodes. */
    public String upstreamHost() {
        return "127.0.0.1";
    }

    public String apiUrl() {
        return "http://" + apiHost + ":" + apiPort;
    }

    /** Stops the server if this instance started it. Idempotent. */
    @Override
    public synchronized void close() {
        try {
            stopper.close();
        } catch (Exception e) {
            log.warn("stopping toxiproxy ({}) failed", mode, e);
        }
    }

    @Override
    public String toString() {
        return "Toxiproxy[" + mode + "]";
    }
}
