package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of dev.redlock is the contract the README documents, and nothing more; the SPI is one interface. */
class PublicApiTest {

    @Test
    void onlyTheContractIsPublic() throws Exception {
        assertEquals(Set.of("Lease", "LeaseLostException", "LockAttempt", "LockUnavailableException", "LockedTask",
                "MembershipConflictException", "NodeOutcome", "NodeOutcome$Kind", "Preflight", "Redlock", "RedlockConfig", "RedlockConfig$Builder", "RedlockLock",
                "RedlockException", "RedlockHealth", "RedlockHealth$Node", "RedlockHealth$Status",
                "RedlockListener", "RedlockListener$AcquireMode", "RedlockListener$AcquireOutcome",
                "RedlockListener$ExtendTrigger", "RedlockListener$LossReason", "RedlockListener$Operation"),
                PublicTypes.in(Redlock.class, "dev.redlock"));
    }

    /** The lease's methods, with their return types: what users (and reactive callers of releaseAsync) rely on. */
    @Test
    void leaseMethodsArePinned() throws Exception {
        assertEquals(Set.of("resource", "fencingToken", "remainingValidity", "isValid", "checkValid", "extend",
                        "release", "releaseAsync", "close", "onLost"),
                Arrays.stream(Lease.class.getDeclaredMethods()).map(Method::getName).collect(Collectors.toSet()));
        assertEquals(CompletableFuture.class, Lease.class.getMethod("releaseAsync").getReturnType());
        assertEquals(false, Lease.class.getMethod("releaseAsync").isDefault(), "implemented by the library, no default");
    }

    /** For adapter modules (redlock-redisson), not applications. */
    @Test
    void theSpiIsOneInterface() throws Exception {
        assertEquals(Set.of("NodeTransport"), PublicTypes.in(Redlock.class, "dev.redlock.spi"));
    }
}
