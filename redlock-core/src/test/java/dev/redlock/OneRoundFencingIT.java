package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One-round fencing: an instance guesses the next token (highest fence it has seen + 1) and the ACQUIRE script
 * writes it as the fence atomically with the grant; the guess becomes the token only if every counted grant read
 * a lower fence, else the second phase writes max + 1. A stale guess must never repeat or regress a token.
 */
class OneRoundFencingIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    private static long fenceOn(int node, String resource) {
        String v = REDIS.node(node).command("GET", RedisNodes.PREFIX + "__fence:" + resource);
        return v.isEmpty() ? -1 : Long.parseLong(v);
    }

    @Test
    void guessedTokenIsWrittenToAQuorumHoldingOurOwnerBeforeTheLeaseIsReturned() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            // unmarked nodes: fences read at least the node's clock (us). The first acquisition has no guess (two
            // phases); later ones guess max(last seen + 1, this process's clock + margin) and win in one round
            long previous;
            try (Lease l = redlock.acquire("one", Duration.ofSeconds(5))) {
                previous = l.fencingToken();
            }
            long phases = redlock.context().fencePhases();
            HeldLease lease = (HeldLease) redlock.acquire("one", Duration.ofSeconds(5));
            assertTrue(lease.fencingToken() > previous, lease.fencingToken() + " after " + previous);
            assertEquals(phases, redlock.context().fencePhases(), "the guess should have won: no second phase");
            int written = 0;
            for (int i = 0; i < 5; i++) {
                if (REDIS.ownerOn(i, "one").equals(lease.owner()) && fenceOn(i, "one") >= lease.fencingToken()) written++;
            }
            assertTrue(written >= 3, "token written on only " + written + " nodes holding our owner");
            lease.release();
        }
    }

    @Test
    void onNodesMarkedFreshTokensStaySmallAndConsecutiveInOneRound() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            redlock.markNodesFresh();
            List<Long> tokens = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                try (Lease l = redlock.acquire("fresh", Duration.ofSeconds(5))) {
                    tokens.add(l.fencingToken());
                }
            }
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L), tokens);
            assertEquals(1, redlock.context().fencePhases(), "only the first acquisition (no guess yet) needs two phases");
        }
    }

    @Test
    void mostUncontendedAcquisitionsOnUnmarkedNodesFinishInOneRound() {
        int n = 200;
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            long last = 0;
            for (int i = 0; i < n; i++) {
                try (Lease l = redlock.acquire("rate", Duration.ofSeconds(5))) {
                    assertTrue(l.fencingToken() > last);
                    last = l.fencingToken();
                }
            }
            long twoPhase = redlock.context().fencePhases();
            System.out.printf("one-round fencing on unmarked nodes: %d of %d acquisitions in one round%n", n - twoPhase, n);
            // a count, not a timer; a round delayed past the 100 ms margin on a loaded machine costs a second phase
            assertTrue(twoPhase < n / 2, twoPhase + " of " + n + " acquisitions needed the second phase");
        }
    }

    @Test
    void staleGuessFromAnotherInstancesProgressFallsBackAndStillIncreases() {
        List<Long> tokens = new ArrayList<>();
        try (Redlock a = Redlock.create(REDIS.config().retryCount(0).build());
             Redlock b = Redlock.create(REDIS.config().retryCount(0).build())) {
            for (int i = 0; i < 20; i++) {
                // alternate, sometimes several in a row on one side: each instance's guess is stale after the other
                Redlock r = (i / 3) % 2 == 0 ? a : b;
                try (Lease lease = r.acquire("stale", Duration.ofSeconds(5))) {
                    tokens.add(lease.fencingToken());
                }
            }
        }
        for (int i = 1; i < tokens.size(); i++) {
            // trusting the stale guess blindly would hand out last-seen-by-this-instance + 1 = a repeated token here
            assertTrue(tokens.get(i) > tokens.get(i - 1), "token " + tokens.get(i) + " after " + tokens.get(i - 1) + " in " + tokens);
        }
    }

    @Test
    void staleGuessAcrossDifferentMajoritiesStillIncreases() {
        int[][] rotation = {{3, 4}, {0, 1}, {1, 2}, {2, 3}, {0, 4}, {1, 3}, {0, 2}, {1, 4}};
        List<Long> tokens = new ArrayList<>();
        try (Redlock a = Redlock.create(REDIS.config().retryCount(0).build());
             Redlock b = Redlock.create(REDIS.config().retryCount(0).build())) {
            for (int round = 0; round < 2; round++) {
                for (int k = 0; k < rotation.length; k++) {
                    for (int n : rotation[k]) REDIS.node(n).command("SET", RedisNodes.PREFIX + "maj", "foreign", "PX", "60000");
                    try (Lease lease = (k % 3 == 0 ? b : a).acquire("maj", Duration.ofSeconds(5))) {
                        tokens.add(lease.fencingToken());
                    } finally {
                        for (int n : rotation[k]) REDIS.node(n).command("DEL", RedisNodes.PREFIX + "maj");
                    }
                }
            }
        }
        for (int i = 1; i < tokens.size(); i++) {
            assertTrue(tokens.get(i) > tokens.get(i - 1), "token " + tokens.get(i) + " after " + tokens.get(i - 1) + " in " + tokens);
        }
    }

    @Test
    void aGuessBelowANodesFenceIsNeverUsed() {
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(0).build())) {
            redlock.markNodesFresh();   // equal fence floors (0) on every node, so max(fences) is the planted value
            long t1;
            try (Lease l = redlock.acquire("jump", Duration.ofSeconds(5))) {
                t1 = l.fencingToken();
            }
            // someone else's token, far ahead, on three nodes (a quorum): our guess t1 + 1 is stale
            for (int i = 0; i < 3; i++) REDIS.node(i).command("SET", RedisNodes.PREFIX + "__fence:jump", Long.toString(t1 + 1000));
            try (Lease l = redlock.acquire("jump", Duration.ofSeconds(5))) {
                assertEquals(t1 + 1001, l.fencingToken(), "must be max(fences) + 1, not the stale guess");
            }
        }
    }
}
