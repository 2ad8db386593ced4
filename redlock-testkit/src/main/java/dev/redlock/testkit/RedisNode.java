package dev.redlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One real {@code redis-server} process on a free loopback port, managed by pid.
 *
 * <p>Guarantees: the process is started with no persistence (or AOF {@code appendfsync always} when asked),
 * bound to 127.0.0.1, its own data directory; {@link #close()} kills it (SIGCONT first, then SIGKILL)
 * and is idempotent; a JVM shutdown hook kills any node a test forgot. {@link #restart()} keeps the port, the
 * arguments and the environment. Not thread-safe for concurrent lifecycle calls on the same node.
 *
 * <pre>{@code RedisNode node = RedisNode.builder().aof(true).args("--maxmemory", "1mb").start();}</pre>
 */
public final class RedisNode implements RedisProcess {
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
    private final Path binary;
    private final List<String> extraArgs;
    private final Map<String, String> environment;
    private volatile Process process;
    private volatile boolean paused;
    private volatile long startedNanos;

    private RedisNode(int port, Path dir, Builder b) {
        this.port = port;
        this.aof = b.aof;
        this.dir = dir;
        this.binary = b.binary != null ? b.binary : RedisBinary.path();
        this.extraArgs = List.copyOf(b.args);
        this.environment = Map.copyOf(b.environment);
    }

    /** A builder for a node: no persistence, no extra arguments, the JVM's environment, {@link RedisBinary#path()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts a node without persistence on a free port. */
    public static RedisNode start() {
        return builder().start();
    }

    /** Starts a node on a free port; {@code aof} turns on {@code appendonly yes, appendfsync always}. */
    public static RedisNode start(boolean aof, String... extraArgs) {
        return builder().aof(aof).args(extraArgs).start();
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

    @Override
    public int port() { return port; }

    public String host() { return "127.0.0.1"; }

    /** {@code redis://127.0.0.1:port}. */
    public String uri() { return "redis://127.0.0.1:" + port; }

    @Override
    public boolean persistent() { return aof; }

    /** The executable this node runs. */
    public Path binary() { return binary; }

    /** {@link System#nanoTime()} when the current process was started (by {@code start} or {@link #restart()}). */
    public long startedNanos() { return startedNanos; }

    /** The OS pid of the current process, or -1 when not running. */
    @Override
    public long pid() {
        Process p = process;
        return p != null && p.isAlive() ? p.pid() : -1;
    }

    @Override
    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** SIGKILL: the process dies without a chance to write anything. */
    @Override
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
    @Override
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
    @Override
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT. */
    @Override
    public void resume() {
        if (paused) signal("CONT");
        paused = false;
    }

    @Override
    public boolean isPaused() { return paused; }

    /** Sends one command and returns its reply (for fixtures, not for the product). */
    @Override
    public String command(String... args) {
        return Resp.command(host(), port, null, null, 0, args);
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
                binary.toString(),
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
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(environment);
        startedNanos = System.nanoTime();
        Process p = pb.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) return false;
            if (Resp.answersPing(host(), port, 500)) {
                process = p;
                return true;
            }
            Sleep.millis(10);
        }
        p.destroyForcibly();
        return false;
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
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: temp dir
        }
    }

    /**
     * Mutable, reusable builder of {@link RedisNode}s; each {@link #start()} starts a new node on a free port. Not
     * thread-safe.
     */
    public static final class Builder {
        private boolean aof;
        private final List<String> args = new ArrayList<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private Path binary;

        private Builder() {}

        /** {@code appendonly yes, appendfsync always} when true; default false (no persistence at all). */
        public Builder aof(boolean aof) {
            this.aof = aof;
            return this;
        }

        /** Extra {@code redis-server} arguments, after the kit's own (so they win), e.g. {@code "--maxmemory", "1mb"}. */
        public Builder args(String... args) {
            this.args.addAll(List.of(args));
            return this;
        }

        /** An environment variable of the process (e.g. {@code LD_PRELOAD}), on top of the JVM's environment. */
        public Builder env(String name, String value) {
            environment.put(name, value);
            return this;
        }

        /** The executable to run; default {@link RedisBinary#path()}. */
        public Builder binary(Path binary) {
            this.binary = binary;
            return this;
        }

        /**
         * Starts a node on a free port (trying up to five ports) and waits until it answers {@code PING}.
         *
         * @throws IllegalStateException when it did not come up
         */
        public RedisNode start() {
            IOException last = null;
            for (int attempt = 0; attempt < 5; attempt++) {
                int port = Ports.free();
                try {
                    Path dir = Files.createTempDirectory("redis-node-" + port + "-");
                    RedisNode node = new RedisNode(port, dir, this);
                    if (node.launch()) {
                        synchronized (LIVE) { LIVE.add(node); }
                        return node;
                    }
                    node.deleteDir();
                } catch (IOException e) {
                    last = e;
                }
            }
            throw new IllegalStateException("could not start " + (binary != null ? binary : "redis-server")
                    + " on a free port" + (environment.isEmpty() ? "" : " with environment " + environment.keySet()), last);
        }
    }
}
