package dev.redlock.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.shedlock} is a contract: adding a public type must be deliberate. */
class ShedLockPublicApiTest {

    @Test
    void onlyTheseTypesArePublic() throws Exception {
        assertEquals(Set.of("RedlockLockProvider", "RedlockSimpleLock"), PublicTypes.in(RedlockLockProvider.class, "dev.redlock.shedlock"));
    }
}
