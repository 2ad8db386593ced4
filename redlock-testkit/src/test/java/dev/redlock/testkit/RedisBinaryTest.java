package dev.redlock.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Naming a server: a bundled one by its id, or an executable by its path; anything else is refused by name. */
class RedisBinaryTest {

    @Test
    void bundledServersAreNamedByTheirIds() {
        assertEquals(Optional.of(BundledServer.REDIS_7_0), BundledServer.byId(" Embedded-7.0 "));
        assertEquals(Optional.of(BundledServer.REDIS_6_2), BundledServer.byId("embedded-6.2"));
        assertEquals(Optional.empty(), BundledServer.byId("embedded-5.0"));
        assertEquals("7.0.15", BundledServer.REDIS_7_0.version());
        assertEquals("6.2.11", BundledServer.REDIS_6_2.version());
    }

    @Test
    void bothBundledBinariesAreExtractedAsExecutables() {
        Path seven = RedisBinary.resolve("embedded-7.0");
        Path six = RedisBinary.resolve("embedded-6.2");
        assertTrue(Files.isExecutable(seven), seven.toString());
        assertTrue(Files.isExecutable(six), six.toString());
        assertTrue(!seven.equals(six), "one file per bundled binary");
        assertEquals(six, RedisBinary.embedded());
    }

    @Test
    void aPathMustBeAnExecutableFile(@TempDir Path dir) throws IOException {
        Path exe = Files.createFile(dir.resolve("valkey-server"));
        exe.toFile().setExecutable(true);
        assertEquals(exe, RedisBinary.resolve(exe.toString()));
        Path plain = Files.createFile(dir.resolve("not-executable"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RedisBinary.resolve(plain.toString()));
        assertEquals("'" + plain + "' is neither an executable file nor one of [embedded-6.2, embedded-7.0]", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RedisBinary.resolve(dir.resolve("missing").toString()));
    }
}
