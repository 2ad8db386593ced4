package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The public surface of dev.redlock is the contract of architecture.md, and nothing more. */
class PublicApiTest {

    @Test
    void onlyTheContractIsPublic() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Redlock.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("dev/redlock");
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.list(root)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = p.getFileName().toString().replace(".class", "");
                Class<?> c = Class.forName("dev.redlock." + name.replace('$', '.').replaceAll("\\.(\\w+)$", "\\$$1"), false,
                        getClass().getClassLoader());
                if (Modifier.isPublic(c.getModifiers()) && !c.isAnonymousClass()) publicTypes.add(name);
            }
        }
        assertEquals(new TreeSet<>(Set.of("Lease", "LeaseLostException", "LockUnavailableException", "LockedTask",
                "NodeOutcome", "NodeOutcome$Kind", "Redlock", "RedlockConfig", "RedlockConfig$Builder",
                "RedlockException")), publicTypes);
    }

    /** The SPI for adapter modules stays one interface. */
    @Test
    void theSpiIsOneInterface() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Redlock.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("dev/redlock/spi");
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.list(root)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = p.getFileName().toString().replace(".class", "");
                if (name.equals("package-info")) continue;
                Class<?> c = Class.forName("dev.redlock.spi." + name, false, getClass().getClassLoader());
                if (Modifier.isPublic(c.getModifiers())) publicTypes.add(name);
            }
        }
        assertEquals(Set.of("NodeTransport"), publicTypes);
    }
}
