package dev.redlock.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.spring.boot}: the auto-configurations (for excludes) and the properties. */
class StarterPublicApiTest {

    @Test
    void onlyTheseTypesArePublic() throws Exception {
        assertEquals(Set.of("RedlockAutoConfiguration", "RedlockHealthAutoConfigurationBoot3",
                "RedlockHealthAutoConfigurationBoot4", "RedlockProperties", "RedlockProperties$Health",
                "RedlockProperties$LockRegistry", "RedlockProperties$Observations"), PublicTypes.in(RedlockProperties.class, "dev.redlock.spring.boot"));
    }
}
