package dev.redlock.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.shedlock} is a contract: adding a public type must be deliberate. */
class ShedLockPublicApiTest {

    @Test
    void onlyTheseTypesArePublic() throws Exception {
        Path dir = Path.of(RedlockLockProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/redlock/shedlock");
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".class")) continue;
                Class<?> c = Class.forName("dev.redlock.shedlock." + name.substring(0, name.length() - 6));
                if (!c.isAnonymousClass() && !c.isSynthetic() && Modifier.isPublic(c.getModifiers())) {
                    publicTypes.add(c.getName().substring("dev.redlock.shedlock.".length()));
                }
            }
        }
        assertEquals(Set.of("RedlockLockProvider", "RedlockSimpleLock"), publicTypes);
    }
}
