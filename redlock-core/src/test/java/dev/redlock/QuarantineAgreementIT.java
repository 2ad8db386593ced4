package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The restart quarantine is what the strictest client needs, not a per-client setting: nodes store the largest
 * quarantine any client asked for, and a client does not count a grant from a node younger than the largest
 * quarantine it has seen in the replies (a node that lost its memory also lost the stored value).
 */
class QuarantineAgreementIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final String P = RedisNodes.PREFIX;

    @Test
    void aClientWithAShortQuarantineDoesNotTakeALockAStricterClientStillHolds() {
        RedlockConfig strict = REDIS.config().restartQuarantine(Duration.ofSeconds(5)).build();
        RedlockConfig lax = REDIS.config().restartQuarantine(Duration.ofMillis(500)).build();
        try (Redlock a = Redlock.create(strict); Redlock c = Redlock.create(lax)) {
            a.markNodesFresh();
            REDIS.node(2).command("SET", P + "q", "foreign", "PX", "60000");
            Lease held = a.acquire("q", Duration.ofSeconds(4));   // on nodes 0 and 1; node 2 refused
            REDIS.node(2).command("DEL", P + "q");
            REDIS.node(0).killAndRestart();                      // lost A's key (no persistence)
            c.tryAcquire("other", Duration.ofMillis(500)).ifPresent(Lease::release);   // node 0's memory begins
            Sleep.millis(700);                               // past the lax client's own quarantine
            try (Redlock b = Redlock.create(lax)) {              // knows nothing of the strict client
                Optional<Lease> second = b.tryAcquire("q", Duration.ofMillis(500));
                try {
                    assertTrue(second.isEmpty(), () -> "two holders: A valid=" + held.isValid() + " token "
                            + held.fencingToken() + ", B token " + second.get().fencingToken());
                } finally {
                    second.ifPresent(Lease::release);
                    held.release();
                }
            }
        }
    }
}
