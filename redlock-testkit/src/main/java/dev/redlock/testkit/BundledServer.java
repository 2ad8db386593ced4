package dev.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code redis-server} binaries this kit carries from Maven artifacts (Linux x86-64 only), so a machine with
 * nothing installed still runs two server lines: each is extracted once into the temp directory on first use.
 * Select one by {@link #id()} wherever a server is named ({@code REDIS_SERVER=embedded-7.0}, an entry of
 * {@code REDLOCK_SERVERS}). Thread-safe.
 */
public enum BundledServer {
    /** Redis 6.2.11 from {@code com.github.codemonstur:embedded-redis} (dynamically linked): the default server. */
    REDIS_6_2("embedded-6.2", "6.2.11", "/redis-server-6.2.6-v5-linux-amd64", "com.github.codemonstur:embedded-redis"),
    /**
     * Redis 7.0.15 from {@code org.signal:embedded-redis} (statically linked: libfaketime's preload has no effect on
     * it, so clock faults on it run simulated).
     */
    REDIS_7_0("embedded-7.0", "7.0.15", "/redis-server-7.0.15-linux-amd64", "org.signal:embedded-redis");

    private final String id;
    private final String version;
    private final String resource;
    private final String artifact;
    private volatile Path extracted;

    BundledServer(String id, String version, String resource, String artifact) {
        this.id = id;
        this.version = version;
        this.resource = resource;
        this.artifact = artifact;
    }

    /** The name that selects it: {@code embedded-6.2}, {@code embedded-7.0}. */
    public String id() {
        return id;
    }

    /** The {@code redis_version} it reports. */
    public String version() {
        return version;
    }

    /** The Maven artifact it comes from. */
    public String artifact() {
        return artifact;
    }

    /** The bundled server named {@code id} ({@link #id()}, case-insensitive); empty when none is. */
    public static Optional<BundledServer> byId(String id) {
        if (id == null) return Optional.empty();
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(b -> b.id.equals(wanted)).findFirst();
    }

    /**
     * The executable, extracted once per JVM.
     *
     * @throws IllegalStateException on a platform the artifacts have no binary for, or when the resource is missing
     */
    public Path path() {
        Path p = extracted;
        if (p == null) {
            synchronized (this) {
                if (extracted == null) extracted = extract();
                p = extracted;
            }
        }
        return p;
    }

    private Path extract() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException("no bundled " + id + " binary for " + os + "/" + arch
                    + "; install redis-server (or valkey-server) or set REDIS_SERVER to one");
        }
        try (InputStream in = BundledServer.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException(id + ": " + resource + " (from " + artifact + ") not on the classpath");
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
            throw new UncheckedIOException("cannot extract the bundled " + id + " binary", e);
        }
    }
}
