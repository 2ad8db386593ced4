package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of dev.redlock is the contract the README documents, and nothing more; the SPI is one interface. */
class PublicApiTest {

    @Test
    void onlyTheContractIsPublic() throws Exception {
        assertEquals(Set.of("Lease", "LeaseLostException", "LockUnavailableException", "LockedTask",
                "NodeOutcome", "NodeOutcome$Kind", "Preflight", "Redlock", "RedlockConfig", "RedlockConfig$Builder", "RedlockLock",
                "RedlockException", "RedlockHealth", "RedlockHealth$Node", "RedlockHealth$Status",
                "RedlockListener", "RedlockListener$AcquireMode", "RedlockListener$AcquireOutcome",
                "RedlockListener$ExtendTrigger", "RedlockListener$LossReason", "RedlockListener$Operation"),
                PublicTypes.in(Redlock.class, "dev.redlock"));
    }

    /** For adapter modules (redlock-redisson), not applications. */
    @Test
    void theSpiIsOneInterface() throws Exception {
        assertEquals(Set.of("NodeTransport"), PublicTypes.in(Redlock.class, "dev.redlock.spi"));
    }
}
