package dev.redlock.bench;

import java.io.File;

/** Finds optional tools (redis-benchmark, node, npm) on the PATH; the bench runs without each of them. */
final class Executables {
    private Executables() {}

    /** The executable {@code name} on the PATH, or null when there is none. */
    static String onPath(String name) {
        return onPath(name, System.getenv("PATH"));
    }

    /** The executable {@code name} in one of the directories of {@code path}, or null. */
    static String onPath(String name, String path) {
        if (path == null) return null;
        for (String dir : path.split(File.pathSeparator)) {
            File f = new File(dir, name);
            if (f.isFile() && f.canExecute()) return f.getPath();
        }
        return null;
    }
}
