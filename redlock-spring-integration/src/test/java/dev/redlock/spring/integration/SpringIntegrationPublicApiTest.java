package dev.redlock.spring.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.spring.integration} is a contract: adding a public type must be deliberate. */
class SpringIntegrationPublicApiTest {

    @Test
    void onlyTheseTypesArePublic() throws Exception {
        Path dir = Path.of(RedlockLockRegistry.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/redlock/spring/integration");
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".class")) continue;
                Class<?> c = Class.forName("dev.redlock.spring.integration." + name.substring(0, name.length() - 6));
                if (!c.isAnonymousClass() && !c.isSynthetic() && Modifier.isPublic(c.getModifiers())) {
                    publicTypes.add(c.getName().substring("dev.redlock.spring.integration.".length()));
                }
            }
        }
        assertEquals(Set.of("RedlockDistributedLock", "RedlockLockRegistry"), publicTypes);
    }
}
