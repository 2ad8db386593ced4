package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Ticker;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client whose wall clock is stepped after {@code create} (an NTP step, a VM resumed) must not push fencing tokens
 * beyond what the nodes' clocks justify: after a node loses its memory its fences read its clock, and the next
 * holder's token must still exceed every earlier one.
 */
class ClockStepIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    private static final String P = RedisNodes.PREFIX;
    private static final Duration QUARANTINE = Duration.ofSeconds(1);

    @Test
    void aClientClockSteppedAheadDoesNotLeaveATokenAboveANodeThatLostItsMemory() {
        RedlockConfig cfg = REDIS.config().restartQuarantine(QUARANTINE).build();
        AtomicLong step = new AtomicLong();
        try (Redlock stepped = Redlock.create(cfg, Ticker.SYSTEM, () -> RedlockContext.systemMicros() + step.get());
             Redlock other = Redlock.create(cfg)) {
            stepped.tryAcquire("step", Duration.ofMillis(500)).ifPresent(Lease::release);  // the nodes' memory begins
            Sleep.millis(QUARANTINE.toMillis() + 200);                           // (not marked fresh: tokens are times)
            stepped.acquire("step", Duration.ofMillis(500)).release();          // a hint: the next round guesses
            step.set(Duration.ofSeconds(60).toNanos() / 1000);                   // +60 s, after create
            for (int i = 3; i < 5; i++) REDIS.node(i).command("SET", P + "step", "foreign", "PX", "60000");
            long a;
            try (Lease l = stepped.acquire("step", Duration.ofMillis(500))) {   // on nodes 0, 1, 2
                a = l.fencingToken();
            }
            for (int i = 3; i < 5; i++) REDIS.node(i).command("DEL", P + "step");
            REDIS.node(2).killAndRestart();                                    // forgets the fence and the marker
            long[] b = new long[1];
            REDIS.whilePaused(() -> {                                          // the next holder reaches 2, 3, 4
                other.tryAcquire("step", Duration.ofMillis(500)).ifPresent(Lease::release);   // node 2's memory begins
                Sleep.millis(QUARANTINE.toMillis() + 200);
                try (Lease l = other.acquire("step", Duration.ofMillis(500))) {
                    b[0] = l.fencingToken();
                }
            }, 0, 1);
            assertTrue(b[0] > a, "token " + b[0] + " after " + a + " (" + (a - b[0]) / 1000 + " ms lower)");
        }
    }

    /**
     * The client measures its clock against the nodes' on ordinary traffic: after a step it stops guessing one-round
     * tokens the nodes would not write (every acquire takes the second fencing phase) and resumes once the clocks
     * agree again.
     */
    @Test
    void aClientWhoseClockIsOffStopsGuessingAndResumesWhenItAgrees() {
        RedlockConfig cfg = REDIS.config().restartQuarantine(QUARANTINE).build();
        AtomicLong step = new AtomicLong();
        try (Redlock r = Redlock.create(cfg, Ticker.SYSTEM, () -> RedlockContext.systemMicros() + step.get())) {
            r.tryAcquire("watch", Duration.ofMillis(500)).ifPresent(Lease::release);     // the nodes' memory begins
            Sleep.millis(QUARANTINE.toMillis() + 200);
            r.acquire("watch", Duration.ofMillis(500)).release();
            assertTrue(r.context().clockWatch().guessing());
            step.set(Duration.ofSeconds(60).toNanos() / 1000);
            r.acquire("watch", Duration.ofMillis(500)).release();                     // its replies show the offset
            assertFalse(r.context().clockWatch().guessing(), "the clock watch saw the step");
            long phases = r.context().fencePhases();
            for (int i = 0; i < 3; i++) r.acquire("watch", Duration.ofMillis(500)).release();
            assertEquals(phases + 3, r.context().fencePhases(), "no guess while the clock is off: two phases each");
            step.set(0);
            r.acquire("watch", Duration.ofMillis(500)).release();
            assertTrue(r.context().clockWatch().guessing(), "the clocks agree again");
        }
    }
}
