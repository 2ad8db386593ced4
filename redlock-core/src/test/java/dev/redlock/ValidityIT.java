package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.FakeTicker;
import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Validity = ttl - elapsed - drift on the (injected) monotonic clock; a quorum that comes too late is a failure. */
class ValidityIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    @Test
    void validityIsTtlMinusDriftWhenNoTimePasses() {
        FakeTicker t = new FakeTicker();
        RedlockConfig cfg = REDIS.config().driftFactor(0.01).fixedDrift(Duration.ofMillis(2)).build();
        try (Redlock redlock = Redlock.create(cfg, t); Lease lease = redlock.acquire("v", Duration.ofSeconds(10))) {
            assertEquals(Duration.ofMillis(10_000 - 100 - 2), lease.remainingValidity());
            t.advance(Duration.ofMillis(9_000));
            assertEquals(Duration.ofMillis(898), lease.remainingValidity());
            assertTrue(lease.isValid());
            t.advance(Duration.ofMillis(898));
            assertTrue(!lease.isValid());
            assertThrows(LeaseLostException.class, lease::checkValid);
        }
    }

    @ParameterizedTest(name = "fencing={0}")
    @ValueSource(booleans = {false, true})
    void quorumArrivingAfterTheValidityIsAFailureAndReleasesEverything(boolean fencing) {
        FakeTicker t = new FakeTicker();
        t.stepEveryReading(Duration.ofMillis(400));   // every clock reading is 400 ms later: votes "arrive" late
        try (Redlock redlock = Redlock.create(REDIS.config().fencing(fencing).retryCount(0).build(), t)) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("slow", Duration.ofSeconds(1)));
            assertTrue(e.getMessage().contains("validity"), e.getMessage());
        }
        // the after-each check asserts that the grants were released
    }

    @Test
    void extendRecomputesValidityFromItsOwnStart() {
        FakeTicker t = new FakeTicker();
        try (Redlock redlock = Redlock.create(REDIS.config().build(), t); Lease lease = redlock.acquire("e", Duration.ofSeconds(10))) {
            t.advance(Duration.ofSeconds(5));
            lease.extend(Duration.ofSeconds(2));
            assertEquals(Duration.ofMillis(2000 - 20 - 2), lease.remainingValidity());
        }
    }

    @Test
    void aSubMillisecondPartOfTheTtlIsNotCountedAsValidity() {
        FakeTicker t = new FakeTicker();
        RedlockConfig cfg = REDIS.config().driftFactor(0).fixedDrift(Duration.ZERO).build();
        try (Redlock redlock = Redlock.create(cfg, t);
             Lease lease = redlock.acquire("sub", Duration.ofNanos(300_900_000))) {
            // the nodes got PX 300: a validity of 300.9 ms would outlive the keys by 0.9 ms
            assertEquals(Duration.ofMillis(300), lease.remainingValidity());
        }
    }

    @Test
    void anOverflowingTtlIsAnIllegalArgumentNamingTheField() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> redlock.acquire("big", Duration.ofSeconds(Long.MAX_VALUE)));
            assertTrue(e.getMessage().startsWith("ttl must be"), e.getMessage());
            try (Lease lease = redlock.acquire("big", Duration.ofSeconds(1))) {
                IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                        () -> lease.extend(Duration.ofSeconds(Long.MAX_VALUE)));
                assertTrue(x.getMessage().startsWith("ttl must be"), x.getMessage());
            }
        }
    }
}
