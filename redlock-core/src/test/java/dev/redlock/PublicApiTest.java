package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of dev.redlock is the contract the README documents, and nothing more; the SPI is one interface. */
class PublicApiTest {

    @Test
    void onlyTheContractIsPublic() throws Exception {
        assertEquals(Set.of("Lease", "LeaseLostException", "LockAttempt", "LockUnavailableException", "LockedTask",
                "MembershipConflictException", "MultiLease", "NodeOutcome", "NodeOutcome$Kind", "Preflight", "Redlock", "RedlockConfig", "RedlockConfig$Builder", "RedlockLock",
                "RedlockException", "RedlockHealth", "RedlockHealth$Node", "RedlockHealth$Status",
                "RedlockListener", "RedlockListener$AcquireMode", "RedlockListener$AcquireOutcome",
                "RedlockListener$ExtendTrigger", "RedlockListener$LossReason", "RedlockListener$Operation",
                "RedlockListener$Step"),
                PublicTypes.in(Redlock.class, "dev.redlock"));
    }

    /** The multi-resource lease's methods, with their return types: the contract of Redlock.acquireAll. */
    @Test
    void multiLeaseMethodsArePinned() throws Exception {
        assertEquals(Set.of("resources", "fencingToken", "remainingValidity", "isValid", "checkValid", "extend",
                        "release", "releaseAsync", "close", "onLost", "keepAlive", "whenLost"),
                Arrays.stream(MultiLease.class.getDeclaredMethods()).map(Method::getName).collect(Collectors.toSet()));
        assertEquals(long.class, MultiLease.class.getMethod("fencingToken", String.class).getReturnType());
        assertEquals(MultiLease.class, MultiLease.class.getMethod("keepAlive").getReturnType());
        assertEquals(true, AutoCloseable.class.isAssignableFrom(MultiLease.class));
        assertEquals(MultiLease.class, Redlock.class.getMethod("acquireAll", java.util.Collection.class, Duration.class)
                .getReturnType());
    }

    /** The lease's methods, with their return types: what users (and reactive callers of releaseAsync) rely on. */
    @Test
    void leaseMethodsArePinned() throws Exception {
        assertEquals(Set.of("resource", "fencingToken", "remainingValidity", "isValid", "checkValid", "extend",
                        "release", "releaseAsync", "close", "onLost", "keepAlive", "whenLost"),
                Arrays.stream(Lease.class.getDeclaredMethods()).map(Method::getName).collect(Collectors.toSet()));
        assertEquals(CompletableFuture.class, Lease.class.getMethod("releaseAsync").getReturnType());
        assertEquals(false, Lease.class.getMethod("releaseAsync").isDefault(), "implemented by the library, no default");
        assertEquals(Lease.class, Lease.class.getMethod("keepAlive").getReturnType());
        assertEquals(CompletableFuture.class, Lease.class.getMethod("whenLost").getReturnType());
        assertEquals(false, Lease.class.getMethod("whenLost").isDefault(), "implemented by the library, no default");
    }

    /** What the async, Reactor, Kotlin and Spring layers compile against. */
    @Test
    void asyncLockingIsPinned() throws Exception {
        Method m = Redlock.class.getMethod("withLockAsync", String.class, Duration.class, Function.class);
        assertEquals(CompletableFuture.class, m.getReturnType());
        assertEquals(LockedTask.class, LockedTask.class.getMethod("interruptOnLoss", LockedTask.class).getReturnType());
        assertEquals(Duration.class, RedlockConfig.class.getMethod("maxHold").getReturnType());
        assertEquals(RedlockConfig.Builder.class, RedlockConfig.Builder.class.getMethod("maxHold", Duration.class).getReturnType());
        assertEquals(RedlockListener.Step.class,
                RedlockListener.class.getMethod("onAcquireStart", String.class, RedlockListener.AcquireMode.class).getReturnType());
        assertEquals(RedlockListener.Step.class,
                RedlockListener.class.getMethod("onExtendStart", String.class, RedlockListener.ExtendTrigger.class).getReturnType());
        assertEquals(RedlockListener.Step.class, RedlockListener.class.getMethod("onReleaseStart", String.class).getReturnType());
    }

    /** For adapter modules (redlock-redisson), not applications. */
    @Test
    void theSpiIsOneInterface() throws Exception {
        assertEquals(Set.of("NodeTransport"), PublicTypes.in(Redlock.class, "dev.redlock.spi"));
    }
}
