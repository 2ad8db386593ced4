package dev.redlock.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Finds the server executable every node of a JVM runs by default: {@code $REDIS_SERVER} if set (a path, or the
 * {@link BundledServer#id() id} of a bundled binary such as {@code embedded-7.0}), else {@code redis-server} on the
 * PATH, else {@code valkey-server} on the PATH, else the bundled Redis 6.2.11 ({@link BundledServer#REDIS_6_2}).
 * Resolved once per JVM. Thread-safe.
 */
public final class RedisBinary {
    /** The environment variable that names the server. */
    public static final String ENV = "REDIS_SERVER";
    /** The names looked up on the PATH, in order. */
    public static final List<String> ON_PATH = List.of("redis-server", "valkey-server");

    private static volatile Path cached;

    private RedisBinary() {}

    /**
     * The executable to start, resolved once per JVM.
     *
     * @throws IllegalArgumentException when {@code $REDIS_SERVER} names neither an executable file nor a bundled server
     */
    public static Path path() {
        Path p = cached;
        if (p == null) {
            synchronized (RedisBinary.class) {
                if (cached == null) {
                    try {
                        cached = resolve(System.getenv(ENV));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(ENV + ": " + e.getMessage(), e);
                    }
                }
                p = cached;
            }
        }
        return p;
    }

    /** The bundled Redis 6.2 binary ({@link BundledServer#REDIS_6_2}), whatever {@link #path()} is. */
    public static Path embedded() {
        return BundledServer.REDIS_6_2.path();
    }

    /** Where {@link #path()} came from, for reports: "env REDIS_SERVER", "PATH" or "embedded-redis artifact". */
    public static String origin() {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            return BundledServer.byId(env).map(b -> "env REDIS_SERVER=" + b.id() + " (" + b.artifact() + ")")
                    .orElse("env REDIS_SERVER");
        }
        for (String name : ON_PATH) if (Executables.onPath(name) != null) return "PATH (" + name + ")";
        return "embedded-redis artifact";
    }

    /**
     * The server {@code spec} names: a bundled server's id, or the path of an executable; with no spec, the first
     * of {@link #ON_PATH} on the PATH, else the bundled 6.2.
     *
     * @throws IllegalArgumentException when {@code spec} names neither
     */
    public static Path resolve(String spec) {
        if (spec != null && !spec.isBlank()) {
            Optional<BundledServer> bundled = BundledServer.byId(spec);
            if (bundled.isPresent()) return bundled.get().path();
            Path p = Path.of(spec.trim());
            if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
                throw new IllegalArgumentException("'" + spec + "' is neither an executable file nor one of "
                        + Arrays.stream(BundledServer.values()).map(BundledServer::id).toList());
            }
            return p;
        }
        for (String name : ON_PATH) {
            Path fromPath = Executables.onPath(name);
            if (fromPath != null) return fromPath;
        }
        return BundledServer.REDIS_6_2.path();
    }
}
