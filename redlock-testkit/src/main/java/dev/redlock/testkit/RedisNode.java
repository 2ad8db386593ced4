package dev.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One real {@code redis-server} process on a free loopback port, managed by pid.
 *
 * <p>Guarantees: the process is started with no persistence (or AOF {@code appendfsync always} when asked),
 * bound to 127.0.0.1, its own data directory; {@link #close()} kills it (SIGCONT first, then SIGKILL)
 * and is idempotent; a JVM shutdown hook kills any node a test forgot. {@link #restart()} keeps the port.
 * Not thread-safe for concurrent lifecycle calls on the same node.
 */
public final class RedisNode implements AutoCloseable {
    private static final List<RedisNode> LIVE = new ArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            List<RedisNode> copy;
            synchronized (LIVE) { copy = new ArrayList<>(LIVE); }
            copy.forEach(RedisNode::close);
        }, "redis-node-reaper"));
    }

    private final int port;
    private final boolean aof;
    private final Path dir;
    private final List<String> extraArgs;
    private volatile Process process;
    private volatile boolean paused;

    private RedisNode(int port, boolean aof, Path dir, List<String> extraArgs) {
        this.port = port;
        this.aof = aof;
        this.dir = dir;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** Starts a node without persistence on a free port. */
    public static RedisNode start() {
        return start(false);
    }

    /** Starts a node on a free port; {@code aof} turns on {@code appendonly yes, appendfsync always}. */
    public static RedisNode start(boolean aof, String... extraArgs) {
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freePort();
            try {
                Path dir = Files.createTempDirectory("redis-node-" + port + "-");
                RedisNode node = new RedisNode(port, aof, dir, List.of(extraArgs));
                if (node.launch()) {
                    synchronized (LIVE) { LIVE.add(node); }
                    return node;
                }
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("could not start redis-server on a free port", last);
    }

    /** Starts {@code n} nodes; on failure stops those already started. */
    public static List<RedisNode> startMany(int n, boolean aof) {
        List<RedisNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) nodes.add(start(aof));
            return nodes;
        } catch (RuntimeException e) {
            nodes.forEach(RedisNode::close);
            throw e;
        }
    }

    public int port() { return port; }

    public String host() { return "127.0.0.1"; }

    /** {@code redis://127.0.0.1:port}. */
    public String uri() { return "redis://127.0.0.1:" + port; }

    public boolean persistent() { return aof; }

    /** The OS pid of the current process, or -1 when not running. */
    public long pid() {
        Process p = process;
        return p != null && p.isAlive() ? p.pid() : -1;
    }

    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** SIGKILL: the process dies without a chance to write anything. */
    public void kill() {
        Process p = process;
        if (p == null) return;
        if (paused) signal("CONT");
        paused = false;
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Starts the process again on the same port and directory (AOF, if on, is replayed). */
    public void restart() {
        if (isRunning()) throw new IllegalStateException("node on port " + port + " is still running");
        try {
            if (!launch()) throw new IllegalStateException("redis-server did not come back on port " + port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** kill -9 then restart at once. */
    public void killAndRestart() {
        kill();
        restart();
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing. */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT. */
    public void resume() {
        if (paused) signal("CONT");
        paused = false;
    }

    public boolean isPaused() { return paused; }

    /** Sends one inline command and returns the first reply line (for fixtures, not for the product). */
    public String command(String... args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(5000);
            Resp.write(s.getOutputStream(), args);
            return Resp.read(s.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("command " + args[0] + " on port " + port + " failed", e);
        }
    }

    /** Keys matching a glob pattern (KEYS; fine for test data sets). */
    public List<String> keys(String pattern) {
        String reply = command("KEYS", pattern);
        if (reply.isEmpty()) return List.of();
        return List.of(reply.split("\n"));
    }

    @Override
    public void close() {
        kill();
        synchronized (LIVE) { LIVE.remove(this); }
        deleteDir();
    }

    @Override
    public String toString() {
        return "RedisNode[" + uri() + ", pid=" + pid() + (aof ? ", aof" : "") + (paused ? ", paused" : "") + "]";
    }

    private boolean launch() throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                RedisBinary.path().toString(),
                "--port", Integer.toString(port),
                "--bind", "127.0.0.1",
                "--protected-mode", "no",
                "--daemonize", "no",
                "--dir", dir.toString(),
                "--save", "",
                "--logfile", "",
                "--loglevel", "warning"));
        if (aof) {
            cmd.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            cmd.addAll(List.of("--appendonly", "no"));
        }
        cmd.addAll(extraArgs);
        Path log = dir.resolve("redis.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) return false;
            if (ping()) {
                process = p;
                return true;
            }
            sleep(10);
        }
        p.destroyForcibly();
        return false;
    }

    private boolean ping() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(500);
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] buf = new byte[16];
            int n = in.read(buf);
            String reply = n > 0 ? new String(buf, 0, n, StandardCharsets.US_ASCII) : "";
            return reply.startsWith("+PONG") || reply.startsWith("-NOAUTH");   // up (a password is required)
        } catch (IOException e) {
            return false;
        }
    }

    private void signal(String sig) {
        long pid = pid();
        if (pid < 0) return;
        try {
            Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
            k.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void deleteDir() {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: temp dir
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
