package dev.redlock.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.fencing} is a contract: adding a public type must be deliberate. */
class FencingPublicApiTest {

    @Test
    void onlyTheseTypesArePublic() throws Exception {
        Path dir = Path.of(FencedTable.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/redlock/fencing");
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".class") || name.equals("package-info.class")) continue;
                Class<?> c = Class.forName("dev.redlock.fencing." + name.substring(0, name.length() - 6));
                if (c.isAnonymousClass() || c.isSynthetic()) continue;
                if (Modifier.isPublic(c.getModifiers())) publicTypes.add(c.getName().substring("dev.redlock.fencing.".length()));
            }
        }
        assertEquals(Set.of("FencedRedisStore", "FencedTable", "FencedTable$Builder", "FencedValue",
                "FencedWriteResult", "FencedWriteResult$Status", "StaleTokenException"), publicTypes);
    }
}
