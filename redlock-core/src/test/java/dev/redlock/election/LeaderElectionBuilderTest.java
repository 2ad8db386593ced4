package dev.redlock.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Builder validation and lifecycle without Redis: the Redlock points at closed ports and is never reached. */
class LeaderElectionBuilderTest {
    private static Redlock redlock;       // nodeTimeout 100ms, restartQuarantine 30s (defaults)
    private static Redlock unfenced;

    @BeforeAll
    static void create() {
        RedlockConfig cfg = RedlockConfig.builder().nodes("redis://127.0.0.1:1", "redis://127.0.0.1:2", "redis://127.0.0.1:3")
                .build();
        redlock = Redlock.create(cfg);
        unfenced = Redlock.create(cfg.toBuilder().fencing(false).build());
    }

    @AfterAll
    static void close() {
        if (redlock != null) redlock.close();
        if (unfenced != null) unfenced.close();
    }

    private static IllegalArgumentException rejects(LeaderElection.Builder b) {
        return assertThrows(IllegalArgumentException.class, b::build);
    }

    @Test
    void renewIntervalMustBeBelowLeaseTtl() {
        IllegalArgumentException e = rejects(LeaderElection.builder(redlock, "r")
                .leaseTtl(Duration.ofSeconds(3)).renewInterval(Duration.ofSeconds(3)));
        assertEquals("renewInterval must be in (0, leaseTtl=3s), got 3s", e.getMessage());
        e = rejects(LeaderElection.builder(redlock, "r").leaseTtl(Duration.ofSeconds(3)).renewInterval(Duration.ZERO));
        assertTrue(e.getMessage().startsWith("renewInterval must be in (0, leaseTtl=3s)"), e.getMessage());
        e = rejects(LeaderElection.builder(redlock, "r").renewInterval(Duration.ofMillis(-5)));
        assertTrue(e.getMessage().contains("renewInterval"), e.getMessage());
    }

    @Test
    void leaseTtlMustCoverThreeNodeTimeoutsAndTheDrift() {
        // nodeTimeout 100ms, fixedDrift 2ms, driftFactor 0.01: (300 + 2) / 0.99 = 305.05 -> 306ms
        IllegalArgumentException e = rejects(LeaderElection.builder(redlock, "r").leaseTtl(Duration.ofMillis(305)));
        assertTrue(e.getMessage().startsWith("leaseTtl must be in [306ms, 30s]"), e.getMessage());
        assertTrue(e.getMessage().endsWith("got 305ms"), e.getMessage());
        LeaderElection ok = LeaderElection.builder(redlock, "r").leaseTtl(Duration.ofMillis(306)).build();
        ok.close();
    }

    @Test
    void leaseTtlMustNotExceedTheRestartQuarantine() {
        IllegalArgumentException e = rejects(LeaderElection.builder(redlock, "r").leaseTtl(Duration.ofSeconds(31)));
        assertTrue(e.getMessage().contains("leaseTtl") && e.getMessage().contains("restartQuarantine"), e.getMessage());
        e = rejects(LeaderElection.builder(redlock, "r").leaseTtl(null));
        assertTrue(e.getMessage().startsWith("leaseTtl must be in") && e.getMessage().endsWith("got null"), e.getMessage());
    }

    @Test
    void fencingMustBeOn() {
        IllegalArgumentException e = rejects(LeaderElection.builder(unfenced, "r"));
        assertTrue(e.getMessage().contains("fencing"), e.getMessage());
    }

    @Test
    void resourceAndInstanceIdAreChecked() {
        assertTrue(rejects(LeaderElection.builder(redlock, "")).getMessage().startsWith("resource must be"));
        assertTrue(rejects(LeaderElection.builder(redlock, "__x")).getMessage().startsWith("resource must be"));
        assertTrue(rejects(LeaderElection.builder(redlock, null)).getMessage().startsWith("resource must be"));
        assertTrue(rejects(LeaderElection.builder(redlock, "r").instanceId(" ")).getMessage().startsWith("instanceId must be"));
        assertThrows(NullPointerException.class, () -> LeaderElection.builder(null, "r"));
    }

    @Test
    void defaultsAndReusableBuilder() {
        LeaderElection.Builder b = LeaderElection.builder(redlock, "cron");
        LeaderElection a = b.build();
        LeaderElection c = b.leaseTtl(Duration.ofSeconds(9)).build();
        try {
            assertEquals(Duration.ofSeconds(15), a.leaseTtl());
            assertEquals(Duration.ofSeconds(5), a.renewInterval());
            assertEquals(Duration.ofSeconds(3), c.renewInterval());
            assertEquals("cron", a.resource());
            assertFalse(a.instanceId().isBlank());
            assertNotEquals(a.instanceId(), c.instanceId(), "default instance ids carry a random suffix");
            assertFalse(a.isLeader());
            assertEquals(OptionalLong.empty(), a.currentEpoch());
        } finally {
            a.close();
            c.close();
        }
    }

    @Test
    void closeIsIdempotentAndStartAfterCloseFails() {
        LeaderElection e = LeaderElection.builder(redlock, "r").instanceId("x").build();
        e.close();
        e.close();
        assertThrows(IllegalStateException.class, e::start);
        assertFalse(e.isLeader());
    }
}
