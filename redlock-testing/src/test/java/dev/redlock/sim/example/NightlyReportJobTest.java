package dev.redlock.sim.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.sim.InMemoryRedlock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How a team tests its own lock-using code with {@link InMemoryRedlock}: the library's real client over simulated
 * nodes, with node failures and time travel, and no Redis.
 */
class NightlyReportJobTest {

    @Test
    void runsOnceWhileAnotherInstanceHoldsTheLockAndSurvivesANodeFailure() {
        try (InMemoryRedlock redis = InMemoryRedlock.builder().nodes(3).build()) {
            NightlyReportJob.ReportStore store = new NightlyReportJob.ReportStore();
            NightlyReportJob job = new NightlyReportJob(redis.redlock(), store);

            Lease other = redis.redlock().acquire("report:2025-06-01", Duration.ofSeconds(30));   // another instance
            assertFalse(job.runOnce("2025-06-01"), "skipped while the other instance holds it");
            other.release();
            assertTrue(job.runOnce("2025-06-01"));

            redis.kill(2);   // one node of three down: a quorum is left
            assertTrue(job.runOnce("2025-06-02"));
            assertEquals(2, store.count());
        }
    }

    @Test
    void aLeaseWhoseTtlPassesIsLostAndTheLockIsFreeAgain() {
        try (InMemoryRedlock redis = InMemoryRedlock.builder().build()) {
            Lease lease = redis.redlock().acquire("report:2025-06-03", Duration.ofSeconds(30));
            redis.advance(Duration.ofSeconds(31));   // a stuck run: the TTL passes without an extension
            assertFalse(lease.isValid());
            assertThrows(LeaseLostException.class, lease::checkValid);
            Optional<Lease> next = redis.redlock().tryAcquire("report:2025-06-03", Duration.ofSeconds(30));
            assertTrue(next.isPresent(), "free again once the TTL has passed");
            assertTrue(next.get().fencingToken() > lease.fencingToken(), "the next holder's token is higher");
            next.get().release();
        }
    }

    @Test
    void withoutAQuorumTheJobDoesNotRun() {
        try (InMemoryRedlock redis = InMemoryRedlock.builder().configure(c -> c.nodeTimeout(Duration.ofMillis(50))).build()) {
            NightlyReportJob.ReportStore store = new NightlyReportJob.ReportStore();
            NightlyReportJob job = new NightlyReportJob(redis.redlock(), store);
            redis.partition(0);
            redis.partition(1);   // two of three unreachable
            assertFalse(job.runOnce("2025-06-04"));
            redis.heal(0);
            redis.heal(1);
            assertTrue(job.runOnce("2025-06-04"));
            assertEquals(1, store.count());
        }
    }
}
