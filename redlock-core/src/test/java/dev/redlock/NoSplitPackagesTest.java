package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Only redlock-core declares its packages ({@code dev.redlock} and below, as its main sources have them): a class of
 * another module in one of them would reach the package-private machinery, which is no contract, and would break
 * the day the core is a named module. Benchmarks that need package access live in the core's {@code src/jmh}.
 * Reads the source tree of the checkout it runs in; skipped when the tests run outside one.
 */
class NoSplitPackagesTest {
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

    @Test
    void noOtherModuleDeclaresACorePackage() throws IOException {
        Path root = checkoutRoot();
        assumeTrue(root != null, "not run inside a checkout of the project");
        Path core = root.resolve("redlock-core");
        Set<String> corePackages = new TreeSet<>();
        for (Path src : sources(core.resolve("src/main/java"))) corePackages.add(packageOf(src));
        Set<String> intruders = new TreeSet<>();
        for (Path src : sources(root)) {
            if (src.startsWith(core)) continue;
            String pkg = packageOf(src);
            if (corePackages.contains(pkg)) intruders.add(root.relativize(src) + " (package " + pkg + ")");
        }
        assertEquals(Set.of(), intruders, "sources outside redlock-core in its packages " + corePackages);
    }

    /** The directory above the working directory that holds redlock-core's pom (modules run their tests inside it). */
    private static Path checkoutRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("redlock-core/pom.xml")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        return null;
    }

    private static List<Path> sources(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
                    .collect(Collectors.toList());
        }
    }

    private static String packageOf(Path src) {
        try {
            Matcher m = PACKAGE.matcher(Files.readString(src));
            return m.find() ? m.group(1) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(src.toString(), e);
        }
    }
}
