package dev.redlock.examples.async;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.examples.support.ExampleNodes;
import dev.redlock.testkit.RedisNodesExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The async example on 3 real redis-server processes (no lock keys may be left after it). */
class AsyncJobsExampleIT {
    @RegisterExtension
    static final RedisNodesExtension REDIS = new RedisNodesExtension(3);

    @Test
    void theLongJobKeepsItsLeaseAndTheStuckJobIsEndedByMaxHold() throws Exception {
        AsyncJobsExample.Outcome o = AsyncJobsExample.run(AsyncJobsExample.config(ExampleNodes.of(REDIS.cluster()))
                .toBuilder().restartQuarantine(Duration.ZERO).build());
        assertTrue(o.report().startsWith("built under token "), o.toString());
        assertTrue(o.stuckFailure().startsWith("LeaseLostException") && o.stuckFailure().contains("maxHold"), o.toString());
        assertTrue(o.stuckHeldMs() >= AsyncJobsExample.MAX_HOLD.toMillis(), "ended before maxHold: " + o);
        assertTrue(o.stuckJobToldOfTheLoss(), o.toString());
        assertTrue(o.freeAfterwards(), "the lost lease's keys were released: " + o);
    }
}
