package dev.redlock.redisson;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The adapter's public surface: two factories, nothing else. */
class RedissonPublicApiTest {

    @Test
    void onlyTheFactoriesArePublic() throws Exception {
        Path dir = Path.of(RedissonRedlock.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/redlock/redisson");
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".class") || name.equals("package-info.class")) continue;
                Class<?> c = Class.forName("dev.redlock.redisson." + name.substring(0, name.length() - 6));
                if (!c.isAnonymousClass() && !c.isSynthetic() && Modifier.isPublic(c.getModifiers())) {
                    publicTypes.add(c.getSimpleName());
                }
            }
        }
        assertEquals(Set.of("RedissonFencedStores", "RedissonRedlock"), publicTypes);
    }
}
