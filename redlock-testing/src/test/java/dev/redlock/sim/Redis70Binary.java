package dev.redlock.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The static redis-server 7.0.15 shipped inside {@code org.signal:embedded-redis}, extracted once into the temp
 * directory (as the testkit extracts its 6.2 binary). Null where the artifact has no binary for this platform.
 */
final class Redis70Binary {
    private static final String RESOURCE = "/redis-server-7.0.15-linux-amd64";
    private static Path extracted;

    private Redis70Binary() {}

    static synchronized Path path() {
        if (extracted != null) return extracted;
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) return null;
        try (InputStream in = Redis70Binary.class.getResourceAsStream(RESOURCE)) {
            if (in == null) return null;
            byte[] bytes = in.readAllBytes();
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "redlock-redis70-" + bytes.length);
            Files.createDirectories(dir);
            Path target = dir.resolve("redis-server");
            if (!Files.isExecutable(target) || Files.size(target) != bytes.length) {
                Path tmp = Files.createTempFile(dir, "redis-server", ".part");
                Files.write(tmp, bytes);
                tmp.toFile().setExecutable(true, false);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            extracted = target;
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract redis-server 7.0.15", e);
        }
    }
}
