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
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A redis-server under libfaketime whose clock the nemesis can move while it runs: started with
 * {@code LD_PRELOAD=libfaketime.so.1}, {@code FAKETIME_TIMESTAMP_FILE=<file>} and {@code FAKETIME_NO_CACHE=1}, so
 * rewriting the file ("+2.5 x1.0": offset in seconds, rate) takes effect at once. The process is the testkit's
 * {@link RedisNode} with that environment; this class adds the clock.
 *
 * <p>A preload can be without effect: a statically linked binary (the bundled Redis 7.0.15) never loads it, and a
 * library that is not libfaketime moves nothing. {@link #start} therefore checks that the node's clock really moves:
 * it sets the clock {@value #PROBE_SECONDS} s ahead, reads {@code TIME} against this host's clock, and sets it back;
 * when the node's clock did not follow, the node is stopped and {@link NoEffect} is thrown, so the caller runs the
 * simulated mode instead of claiming a fault that did not happen.
 */
public final class FaketimeServer implements RedisProcess {
    /** The offset {@link #start} sets for a moment to see that the node's clock follows the control file. */
    static final int PROBE_SECONDS = 60;
    /** How far the node's clock may be from where it should be and still count as following (a loaded host). */
    static final Duration PROBE_TOLERANCE = Duration.ofSeconds(2);

    private static final List<String> CANDIDATES = List.of(
            "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/faketime/libfaketime.so.1",
            "/usr/local/lib/faketime/libfaketime.so.1");

    private final RedisNode node;
    private final Path control;
    private final Path library;
    private final String verified;
    private double offsetSeconds;      // guarded by this
    private double rate = 1.0;         // guarded by this

    private FaketimeServer(RedisNode node, Path control, Path library, String verified) {
        this.node = node;
        this.control = control;
        this.library = library;
        this.verified = verified;
    }

    /** Thrown by {@link #start} when the node runs but its clock does not follow libfaketime's control file. */
    public static final class NoEffect extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NoEffect(String message) {
            super(message);
        }
    }

    /**
     * libfaketime: {@code $FAKETIME_LIB} when set (null when that file is not readable: no fallback, so a run can be
     * made without libfaketime on a machine that has it), else the usual install paths; null when none is installed.
     */
    public static Path library() {
        return library(null);
    }

    /**
     * libfaketime at {@code explicit} when it is given (null when that file is not readable: no fallback), else as
     * {@link #library()}.
     */
    public static Path library(String explicit) {
        if (explicit == null) explicit = System.getenv("FAKETIME_LIB");
        if (explicit != null && !explicit.isBlank()) return Files.isReadable(Path.of(explicit)) ? Path.of(explicit) : null;
        for (String c : CANDIDATES) if (Files.isReadable(Path.of(c))) return Path.of(c);
        return null;
    }

    /** Why {@link #library()} is null, for reports. */
    public static String whyNoLibrary() {
        String env = System.getenv("FAKETIME_LIB");
        return env != null && !env.isBlank() ? "libfaketime not found at FAKETIME_LIB=" + env : "libfaketime not installed";
    }

    /**
     * Starts the default server ({@link RedisBinary#path()}) under libfaketime ({@link #library()}) on a free port.
     *
     * @throws NoEffect              when the node's clock does not move under it
     * @throws IllegalStateException when libfaketime is missing or the node does not come up under it
     */
    public static FaketimeServer start(boolean aof) {
        return start(library(), RedisBinary.path(), aof);
    }

    /**
     * Starts the default server ({@link RedisBinary#path()}) under the libfaketime at {@code lib} on a free port.
     *
     * @throws NoEffect              when the node's clock does not move under it
     * @throws IllegalStateException when {@code lib} is null or the node does not come up under it
     */
    public static FaketimeServer start(Path lib, boolean aof) {
        return start(lib, RedisBinary.path(), aof);
    }

    /**
     * Starts {@code binary} under the libfaketime at {@code lib} on a free port, and checks that its clock follows.
     *
     * @throws NoEffect              when the node's clock does not move under {@code lib} (the node is stopped)
     * @throws IllegalStateException when {@code lib} is null or the node does not come up under it
     */
    public static FaketimeServer start(Path lib, Path binary, boolean aof) {
        if (lib == null) throw new IllegalStateException("libfaketime not installed (set FAKETIME_LIB or install faketime)");
        Path control;
        try {
            control = Files.createTempFile("redis-faketime-", ".rc");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writeControl(control, 0, 1.0);
        RedisNode node = null;
        try {
            node = RedisNode.builder().aof(aof).binary(binary)
                    .env("LD_PRELOAD", lib.toString())
                    .env("FAKETIME_TIMESTAMP_FILE", control.toString())
                    .env("FAKETIME_NO_CACHE", "1")
                    .env("FAKETIME_DONT_FAKE_MONOTONIC", "1")
                    .start();
            String verified = probe(node, control, lib, binary);
            return new FaketimeServer(node, control, lib, verified);
        } catch (RuntimeException e) {
            if (node != null) node.close();
            deleteQuietly(control);
            if (e instanceof NoEffect) throw e;
            throw new IllegalStateException(binary + " did not start under libfaketime (" + lib + ")", e);
        }
    }

    /**
     * Sets the node's clock {@value #PROBE_SECONDS} s ahead and back, reading {@code TIME} each time.
     *
     * @return what was seen, for reports
     * @throws NoEffect when the node's clock did not follow either time
     */
    private static String probe(RedisNode node, Path control, Path lib, Path binary) {
        writeControl(control, PROBE_SECONDS, 1.0);
        long ahead = offsetMicros(node);
        writeControl(control, 0, 1.0);
        long back = offsetMicros(node);
        long tolerance = PROBE_TOLERANCE.toNanos() / 1000;
        if (Math.abs(ahead - PROBE_SECONDS * 1_000_000L) > tolerance || Math.abs(back) > tolerance) {
            throw new NoEffect(String.format(Locale.ROOT, "libfaketime has no effect on %s: set %+d s, its TIME read "
                    + "%+.3f s from this host's clock (then %+.3f s set back); a statically linked binary never loads "
                    + "%s", binary, PROBE_SECONDS, ahead / 1e6, back / 1e6, lib));
        }
        return String.format(Locale.ROOT, "verified: set %+d s, TIME read %+.3f s", PROBE_SECONDS, ahead / 1e6);
    }

    /**
     * The node's clock minus this host's, in microseconds: {@code TIME} against the midpoint of this host's wall
     * clock read just before and just after it.
     */
    static long offsetMicros(RedisProcess node) {
        long before = nowMicros();
        String[] t = node.command("TIME").split("\n");
        long after = nowMicros();
        if (t.length != 2) throw new IllegalStateException("TIME answered " + String.join(" ", t));
        long nodeUs = Long.parseLong(t[0].trim()) * 1_000_000L + Long.parseLong(t[1].trim());
        return nodeUs - (before + after) / 2;
    }

    private static long nowMicros() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
    }

    /** The redis-server executable this node runs. */
    public Path binary() {
        return node.binary();
    }

    /** The libfaketime this node runs under. */
    public Path preload() {
        return library;
    }

    /** What {@link #start} saw when it checked that the node's clock follows ("verified: ..."). */
    public String verified() {
        return verified;
    }

    /** The node's clock minus this host's, now, as {@code TIME} reads it (see {@link #offsetMicros}). */
    public Duration measuredOffset() {
        return Duration.ofNanos(offsetMicros(node) * 1000);
    }

    /**
     * Checks that the node's clock is where the jumps put it (at rate 1): {@code TIME} against this host's clock,
     * within {@link #PROBE_TOLERANCE}.
     *
     * @return the offset measured
     * @throws IllegalStateException when the node's clock is elsewhere: the fault did not take
     */
    public synchronized Duration verifyOffset() {
        Duration measured = measuredOffset();
        Duration expected = Duration.ofNanos((long) (offsetSeconds * 1e9));
        if (rate == 1.0 && measured.minus(expected).abs().compareTo(PROBE_TOLERANCE) > 0) {
            throw new IllegalStateException(String.format(Locale.ROOT, "the clock of the node on port %d reads %+.3f s "
                    + "from this host's, %+.3f s expected: the clock fault did not take", port(),
                    measured.toNanos() / 1e9, offsetSeconds));
        }
        return measured;
    }

    /** Moves the clock by {@code d} from now on (forward; a negative {@code d} sets it back). */
    public synchronized void jump(Duration d) {
        offsetSeconds += d.toNanos() / 1e9;
        writeControl(control, offsetSeconds, rate);
    }

    /**
     * {@link #jump} on a running node, then {@link #verifyOffset}: says where the node's clock is now.
     *
     * @throws IllegalStateException when the node's clock did not move there
     */
    public String jumpChecked(Duration d) {
        jump(d);
        return String.format(Locale.ROOT, "TIME reads %+.3f s from this host's clock", verifyOffset().toNanos() / 1e9);
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

    /**
     * Runs the clock {@code rate} fast (0.03 = 3 %) until {@link FastClock#end()}, which sets it back and checks, from
     * {@code TIME} against this host's clock, that the node's clock ran fast.
     */
    public FastClock runFast(double rate) {
        rate(1 + rate);
        return new FastClock(this, rate, System.nanoTime(), measuredOffset());
    }

    /**
     * A fast clock running since {@code fromNanos}, when the node's offset was {@code offsetFrom}.
     *
     * @param server     the node
     * @param rate       how much fast (0.03 = 3 %)
     * @param fromNanos  {@link System#nanoTime()} at the start
     * @param offsetFrom the node's offset from this host's clock at the start
     */
    public record FastClock(FaketimeServer server, double rate, long fromNanos, Duration offsetFrom) {
        /** The shortest run whose measured rate is judged (shorter: reported only). */
        static final Duration JUDGED_FROM = Duration.ofMillis(500);

        /**
         * Sets the rate back to 1.0 and says how fast the clock ran.
         *
         * @throws IllegalStateException when, over {@link #JUDGED_FROM} or more, it gained less than half of what
         *                               {@code rate} gives: the fault did not take
         */
        public String end() {
            Duration gained = server.measuredOffset().minus(offsetFrom);
            long elapsed = System.nanoTime() - fromNanos;
            server.rate(1.0);
            double measured = gained.toNanos() / (double) elapsed;
            String seen = String.format(Locale.ROOT, "clock ran %+.2f %% (%+.1f ms over %.0f ms, TIME against this "
                    + "host's clock), %+.2f %% set", measured * 100, gained.toNanos() / 1e6, elapsed / 1e6, rate * 100);
            if (elapsed >= JUDGED_FROM.toNanos() && measured < rate / 2) {
                throw new IllegalStateException(seen + ": the fast-clock fault did not take");
            }
            return seen;
        }
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
