package dev.redlock.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Executables looked up on the {@code PATH}, as a shell would find them. */
public final class Executables {
    private Executables() {}

    /** The first executable file named {@code name} in a {@code PATH} directory; null when there is none. */
    public static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) return candidate;
        }
        return null;
    }
}
