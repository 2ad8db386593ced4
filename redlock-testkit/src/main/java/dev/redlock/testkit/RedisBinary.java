package dev.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Finds a {@code redis-server} executable: {@code $REDIS_SERVER} if set, else {@code redis-server} on the PATH,
 * else the Linux binary bundled in the {@code com.github.codemonstur:embedded-redis} artifact (Redis 6.2.11),
 * extracted once into the temp directory. Thread-safe.
 */
public final class RedisBinary {
    private static final String BUNDLED = "/redis-server-6.2.6-v5-linux-amd64";
    private static volatile Path cached;

    private RedisBinary() {}

    /** The executable to start, resolved once per JVM. */
    public static Path path() {
        Path p = cached;
        if (p == null) {
            synchronized (RedisBinary.class) {
                if (cached == null) cached = resolve();
                p = cached;
            }
        }
        return p;
    }

    /**
     * The Linux binary bundled in the embedded-redis artifact (Redis 6.2), extracted once, whatever is on the PATH:
     * for what only it can do (it starts under libfaketime; Debian's 7.0 build does not).
     *
     * @throws IllegalStateException on a platform the artifact has no binary for
     */
    public static Path embedded() {
        Path p = embedded;
        if (p == null) {
            synchronized (RedisBinary.class) {
                if (embedded == null) embedded = extractBundled();
                p = embedded;
            }
        }
        return p;
    }

    private static volatile Path embedded;

    /** Where the binary came from, for reports: "env", "path" or "embedded-redis". */
    public static String origin() {
        if (System.getenv("REDIS_SERVER") != null) return "env REDIS_SERVER";
        return Executables.onPath("redis-server") != null ? "PATH" : "embedded-redis artifact";
    }

    private static Path resolve() {
        String env = System.getenv("REDIS_SERVER");
        if (env != null && !env.isBlank()) return Path.of(env);
        Path fromPath = Executables.onPath("redis-server");
        if (fromPath != null) return fromPath;
        return extractBundled();
    }

    private static Path extractBundled() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException("no redis-server on PATH and no bundled binary for " + os + "/" + arch
                    + "; install redis-server or set REDIS_SERVER");
        }
        try (InputStream in = RedisBinary.class.getResourceAsStream(BUNDLED)) {
            if (in == null) throw new IllegalStateException("embedded-redis artifact not on the classpath");
            byte[] bytes = in.readAllBytes();
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "redlock-redis-" + bytes.length);
            Files.createDirectories(dir);
            Path target = dir.resolve("redis-server");
            if (!Files.isExecutable(target) || Files.size(target) != bytes.length) {
                Path tmp = Files.createTempFile(dir, "redis-server", ".part");
                Files.write(tmp, bytes);
                tmp.toFile().setExecutable(true, false);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the bundled redis-server", e);
        }
    }
}
