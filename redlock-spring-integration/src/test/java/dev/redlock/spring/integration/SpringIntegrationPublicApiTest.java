package dev.redlock.spring.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.spring.integration} is a contract: adding a public type must be deliberate. */
class SpringIntegrationPublicApiTest {

    @Test
    void onlyTheseTypesArePublic() throws Exception {
        assertEquals(Set.of("RedlockDistributedLock", "RedlockLockRegistry"), PublicTypes.in(RedlockLockRegistry.class, "dev.redlock.spring.integration"));
    }
}
