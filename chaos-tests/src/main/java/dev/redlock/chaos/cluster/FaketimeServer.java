package dev.redlock.chaos.cluster;

import dev.redlock.testkit.Resp;
import dev.redlock.testkit.RedisBinary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server under libfaketime whose clock the nemesis can move while it runs: started with
 * {@code LD_PRELOAD=libfaketime.so.1}, {@code FAKETIME_TIMESTAMP_FILE=<file>} and {@code FAKETIME_NO_CACHE=1}, so
 * rewriting the file ("+2.5 x1.0": offset in seconds, rate) takes effect at once. Managed by pid like the testkit's
 * nodes. Works with the embedded-redis 6.2 binary; Debian's redis-server 7.0 aborts at start under libfaketime, in
 * which case {@link #start} throws and the caller falls back to the simulated clock.
 */
public final class FaketimeServer implements ServerProcess {
    private static final List<String> CANDIDATES = List.of(
            "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/faketime/libfaketime.so.1",
            "/usr/local/lib/faketime/libfaketime.so.1");

    private static final java.util.Set<FaketimeServer> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(FaketimeServer::close),
                "faketime-node-reaper"));
    }

    private final Path lib;
    private volatile Path binary = RedisBinary.path();
    private final int port;
    private final boolean aof;
    private final Path dir;
    private final Path control;
    private volatile Process process;
    private volatile boolean paused;
    private double offsetSeconds;
    private double rate = 1.0;
    private volatile long startedNanos;

    private FaketimeServer(Path lib, int port, boolean aof, Path dir) {
        this.lib = lib;
        this.port = port;
        this.aof = aof;
        this.dir = dir;
        this.control = dir.resolve("faketime.rc");
    }

    /** libfaketime: {@code $FAKETIME_LIB}, else the usual install paths; null when none is installed. */
    public static Path library() {
        return library(null);
    }

    /**
     * libfaketime at {@code explicit} when it is given (null when that file is not readable: no fallback), else as
     * {@link #library()}.
     */
    public static Path library(String explicit) {
        if (explicit != null) return Files.isReadable(Path.of(explicit)) ? Path.of(explicit) : null;
        String env = System.getenv("FAKETIME_LIB");
        if (env != null && !env.isBlank() && Files.isReadable(Path.of(env))) return Path.of(env);
        for (String c : CANDIDATES) if (Files.isReadable(Path.of(c))) return Path.of(c);
        return null;
    }

    /**
     * Starts a node under libfaketime ({@link #library()}) on a free port.
     *
     * @throws IllegalStateException when libfaketime is missing or the node does not come up under it
     */
    public static FaketimeServer start(boolean aof) {
        return start(library(), aof);
    }

    /**
     * Starts a node under the libfaketime at {@code lib} on a free port.
     *
     * @throws IllegalStateException when {@code lib} is null or the node does not come up under it
     */
    public static FaketimeServer start(Path lib, boolean aof) {
        if (lib == null) throw new IllegalStateException("libfaketime not installed (set FAKETIME_LIB or install faketime)");
        try {
            int port = Toxiproxy.freePort();
            Path dir = Files.createTempDirectory("redis-faketime-" + port + "-");
            FaketimeServer s = new FaketimeServer(lib, port, aof, dir);
            s.writeControl();
            LIVE.add(s);
            if (!s.launch()) {
                // Debian's 7.0 build aborts under libfaketime (jemalloc); the embedded 6.2 binary does not
                Path first = s.binary;
                Path bundled = null;
                try {
                    bundled = RedisBinary.embedded();
                } catch (RuntimeException e) {
                    // no bundled binary on this platform
                }
                if (bundled == null || bundled.equals(first)) {
                    s.close();
                    throw new IllegalStateException("redis-server did not start under libfaketime (" + lib + ")");
                }
                s.binary = bundled;
                if (!s.launch()) {
                    s.close();
                    throw new IllegalStateException("neither " + first + " nor the embedded 6.2 binary started under "
                            + "libfaketime (" + lib + ")");
                }
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The redis-server executable this node runs (the PATH one, or the embedded 6.2 binary as the fallback). */
    public Path binary() {
        return binary;
    }

    /** Moves the clock by {@code d} from now on (forward; a negative {@code d} sets it back). */
    public synchronized void jump(Duration d) {
        offsetSeconds += d.toNanos() / 1e9;
        writeControl();
    }

    /**
     * Sets the clock's rate (1.0 = real time) from now on, without a jump. libfaketime applies the rate to the time
     * elapsed since the process started, so the offset is moved back by {@code elapsed * (new - old rate)} to keep
     * the node's clock continuous.
     */
    public synchronized void rate(double r) {
        double elapsed = (System.nanoTime() - startedNanos) / 1e9;
        offsetSeconds -= elapsed * (r - rate);
        rate = r;
        writeControl();
    }

    private synchronized void writeControl() {
        String spec = String.format(Locale.ROOT, "%+.3f x%.4f%n", offsetSeconds, rate);
        try {
            Path tmp = dir.resolve("faketime.rc.tmp");
            Files.writeString(tmp, spec);
            Files.move(tmp, control, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean launch() throws IOException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--protected-mode", "no", "--daemonize", "no", "--dir", dir.toString(),
                "--save", "", "--logfile", "", "--loglevel", "warning"));
        cmd.addAll(aof ? List.of("--appendonly", "yes", "--appendfsync", "always") : List.of("--appendonly", "no"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()));
        pb.environment().put("LD_PRELOAD", lib.toString());
        pb.environment().put("FAKETIME_TIMESTAMP_FILE", control.toString());
        pb.environment().put("FAKETIME_NO_CACHE", "1");
        pb.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        writeControl();
        startedNanos = System.nanoTime();
        Process p = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) return false;
            try {
                if (call("PING").equals("PONG")) {
                    process = p;
                    return true;
                }
            } catch (UncheckedIOException e) {
                // not yet
            }
            Toxiproxy.sleep(10);
        }
        p.destroyForcibly();
        return false;
    }

    @Override public int port() { return port; }

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

    @Override public boolean isPaused() { return paused; }

    @Override public boolean persistent() { return aof; }

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

    @Override
    public void restart() {
        if (isRunning()) throw new IllegalStateException("node on port " + port + " is still running");
        try {
            if (!launch()) throw new IllegalStateException("redis-server did not come back on port " + port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void pause() {
        signal("STOP");
        paused = true;
    }

    @Override
    public void resume() {
        if (paused) signal("CONT");
        paused = false;
    }

    @Override
    public String command(String... args) {
        return call(args);
    }

    @Override
    public List<String> keys(String pattern) {
        String r = call("KEYS", pattern);
        return r.isEmpty() ? List.of() : List.of(r.split("\n"));
    }

    @Override
    public void close() {
        kill();
        LIVE.remove(this);
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // temp dir, best effort
        }
    }

    private void signal(String sig) {
        long pid = pid();
        if (pid < 0) return;
        try {
            new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String call(String... args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            s.setSoTimeout(5000);
            Resp.write(s.getOutputStream(), args);
            return Resp.read(s.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("command " + args[0] + " on port " + port + " failed", e);
        }
    }

    @Override
    public String toString() {
        return "FaketimeServer[127.0.0.1:" + port + ", pid=" + pid() + ", offset=" + offsetSeconds + "s, rate=" + rate + "]";
    }
}
