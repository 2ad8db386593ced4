package dev.redlock.chaos.cluster;

import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.RedisProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A redis-server under libfaketime whose clock the nemesis can move while it runs: started with
 * {@code LD_PRELOAD=libfaketime.so.1}, {@code FAKETIME_TIMESTAMP_FILE=<file>} and {@code FAKETIME_NO_CACHE=1}, so
 * rewriting the file ("+2.5 x1.0": offset in seconds, rate) takes effect at once. The process is the testkit's
 * {@link RedisNode} with that environment; this class adds the clock. Works with the embedded-redis 6.2 binary;
 * Debian's redis-server 7.0 aborts at start under libfaketime, in which case {@link #start} throws and the caller
 * falls back to the simulated clock.
 */
public final class FaketimeServer implements RedisProcess {
    private static final List<String> CANDIDATES = List.of(
            "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/faketime/libfaketime.so.1",
            "/usr/local/lib/faketime/libfaketime.so.1");

    private final RedisNode node;
    private final Path control;
    private double offsetSeconds;      // guarded by this
    private double rate = 1.0;         // guarded by this

    private FaketimeServer(RedisNode node, Path control) {
        this.node = node;
        this.control = control;
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
     * Starts a node under the libfaketime at {@code lib} on a free port: with the configured redis-server, else
     * (Debian's 7.0 build aborts under libfaketime) with the embedded 6.2 binary.
     *
     * @throws IllegalStateException when {@code lib} is null or the node does not come up under it
     */
    public static FaketimeServer start(Path lib, boolean aof) {
        if (lib == null) throw new IllegalStateException("libfaketime not installed (set FAKETIME_LIB or install faketime)");
        Path control;
        try {
            control = Files.createTempFile("redis-faketime-", ".rc");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writeControl(control, 0, 1.0);
        RedisNode.Builder b = RedisNode.builder().aof(aof)
                .env("LD_PRELOAD", lib.toString())
                .env("FAKETIME_TIMESTAMP_FILE", control.toString())
                .env("FAKETIME_NO_CACHE", "1")
                .env("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        try {
            return new FaketimeServer(b.start(), control);
        } catch (IllegalStateException first) {
            Path bundled = null;
            try {
                bundled = RedisBinary.embedded();
            } catch (RuntimeException e) {
                // no bundled binary on this platform
            }
            try {
                if (bundled == null || bundled.equals(RedisBinary.path())) {
                    throw new IllegalStateException("redis-server did not start under libfaketime (" + lib + ")", first);
                }
                try {
                    return new FaketimeServer(b.binary(bundled).start(), control);
                } catch (IllegalStateException second) {
                    throw new IllegalStateException("neither " + RedisBinary.path() + " nor the embedded 6.2 binary "
                            + "started under libfaketime (" + lib + ")", second);
                }
            } catch (IllegalStateException e) {
                deleteQuietly(control);
                throw e;
            }
        }
    }

    /** The redis-server executable this node runs (the configured one, or the embedded 6.2 binary as the fallback). */
    public Path binary() {
        return node.binary();
    }

    /** Moves the clock by {@code d} from now on (forward; a negative {@code d} sets it back). */
    public synchronized void jump(Duration d) {
        offsetSeconds += d.toNanos() / 1e9;
        writeControl(control, offsetSeconds, rate);
    }

    /**
     * Sets the clock's rate (1.0 = real time) from now on, without a jump. libfaketime applies the rate to the time
     * elapsed since the process started, so the offset is moved back by {@code elapsed * (new - old rate)} to keep
     * the node's clock continuous.
     */
    public synchronized void rate(double r) {
        double elapsed = (System.nanoTime() - node.startedNanos()) / 1e9;
        offsetSeconds -= elapsed * (r - rate);
        rate = r;
        writeControl(control, offsetSeconds, rate);
    }

    private static void writeControl(Path control, double offsetSeconds, double rate) {
        String spec = String.format(Locale.ROOT, "%+.3f x%.4f%n", offsetSeconds, rate);
        try {
            Path tmp = control.resolveSibling(control.getFileName() + ".tmp");
            Files.writeString(tmp, spec);
            Files.move(tmp, control, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // temp file, best effort
        }
    }

    @Override public int port() { return node.port(); }
    @Override public long pid() { return node.pid(); }
    @Override public boolean isRunning() { return node.isRunning(); }
    @Override public boolean isPaused() { return node.isPaused(); }
    @Override public boolean persistent() { return node.persistent(); }
    @Override public void kill() { node.kill(); }
    @Override public void pause() { node.pause(); }
    @Override public void resume() { node.resume(); }
    @Override public String command(String... args) { return node.command(args); }

    /** Starts again on the same port, under the clock as it is now (offset and rate kept). */
    @Override
    public void restart() {
        node.restart();
    }

    @Override
    public void close() {
        node.close();
        deleteQuietly(control);
    }

    @Override
    public synchronized String toString() {
        return "FaketimeServer[127.0.0.1:" + port() + ", pid=" + pid() + ", offset=" + offsetSeconds + "s, rate=" + rate + "]";
    }
}
