package dev.redlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without node or npm the driver says why and does not start; the bench then skips node-redlock. */
class NodeDriverTest {

    @Test
    void withoutNodeItSaysWhy(@TempDir Path empty) {
        assertEquals("node is not on the PATH", NodeDriver.unavailable(empty.toString()));
        assertEquals("node is not on the PATH", NodeDriver.unavailable(null));
    }

    @Test
    void withoutNpmItSaysWhy(@TempDir Path dir) throws IOException {
        Path node = Files.createFile(dir.resolve("node"));
        assertTrue(node.toFile().setExecutable(true));
        assertEquals("npm is not on the PATH", NodeDriver.unavailable(dir.toString()));
    }

    @Test
    void aNonExecutableFileIsNotAnExecutable(@TempDir Path dir) throws IOException {
        Files.createFile(dir.resolve("node"));
        assertEquals(null, Executables.onPath("node", dir.toString()));
    }
}
