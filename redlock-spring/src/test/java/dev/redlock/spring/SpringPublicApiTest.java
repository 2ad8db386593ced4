package dev.redlock.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.spring}: the annotation, the context, the configuration to import. */
class SpringPublicApiTest {

    @Test
    void onlyTheAnnotationTheContextAndTheConfigurationArePublic() throws Exception {
        assertEquals(Set.of("Locked", "LockedContext", "LockedConfiguration"), PublicTypes.in(Locked.class, "dev.redlock.spring"));
    }
}
