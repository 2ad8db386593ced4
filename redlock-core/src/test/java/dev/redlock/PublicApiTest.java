package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The public surface of dev.redlock is the contract of architecture.md, and nothing more. */
class PublicApiTest {

    @Test
    void onlyTheContractIsPublic() throws Exception {
        assertEquals(new TreeSet<>(Set.of("Lease", "LeaseLostException", "LockUnavailableException", "LockedTask",
                "NodeOutcome", "NodeOutcome$Kind", "Redlock", "RedlockConfig", "RedlockConfig$Builder", "RedlockLock",
                "RedlockException")), PublicTypes.inPackageOf(Redlock.class));
    }
}
