package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fencing tokens strictly increase across successive holders even when their quorums differ. Successive
 * acquisitions are forced onto different majorities by pre-setting a foreign value on two rotating nodes.
 * The same rotation breaks the naive "max of per-node INCR" scheme, shown by {@link #naiveMaxOfIncrRepeatsATokenOnTheSameRotation}.
 */
class FencingIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    // Retries stay on: release() returns once a quorum answered, so the previous lease's key may linger a moment on
    // the fifth node; with two nodes blocked that alone would leave no quorum for the next round.

    /** Blocked pairs: quorums {0,1,2}, {2,3,4}, {0,3,4}, ... (each differs from the one before). */
    private static final int[][] ROTATION = {{3, 4}, {0, 1}, {1, 2}, {2, 3}, {0, 4}, {1, 3}, {0, 2}, {1, 4}};

    private static void block(String resource, int... nodes) {
        for (int n : nodes) REDIS.node(n).command("SET", RedisNodes.PREFIX + resource, "foreign", "PX", "60000");
    }

    private static void unblock(String resource, int... nodes) {
        for (int n : nodes) REDIS.node(n).command("DEL", RedisNodes.PREFIX + resource);
    }

    @Test
    void tokensStrictlyIncreaseAcrossDifferentMajorities() {
        List<Long> tokens = new ArrayList<>();
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(10).build())) {
            for (int round = 0; round < 3; round++) {
                for (int[] blocked : ROTATION) {
                    block("inv", blocked);
                    try (Lease lease = redlock.acquire("inv", Duration.ofSeconds(5))) {
                        tokens.add(lease.fencingToken());
                    } finally {
                        unblock("inv", blocked);
                    }
                }
            }
        }
        for (int i = 1; i < tokens.size(); i++) {
            assertTrue(tokens.get(i) > tokens.get(i - 1), "token " + tokens.get(i) + " after " + tokens.get(i - 1)
                    + " in " + tokens);
        }
    }

    @Test
    void tokensStrictlyIncreaseUnderRandomMajoritiesAndClients() {
        long seed = Seeds.seed("FencingIT");
        Random random = new Random(seed);
        List<Redlock> clients = new ArrayList<>();
        long last = 0;
        try {
            for (int c = 0; c < 3; c++) clients.add(Redlock.create(REDIS.config().retryCount(10).build()));
            for (int i = 0; i < 40; i++) {
                List<Integer> shuffled = new ArrayList<>(IntStream.range(0, 5).boxed().toList());
                Collections.shuffle(shuffled, random);
                int[] blocked = shuffled.subList(0, random.nextInt(3)).stream().mapToInt(Integer::intValue).toArray();
                block("rnd", blocked);
                try (Lease lease = clients.get(random.nextInt(clients.size())).acquire("rnd", Duration.ofSeconds(5))) {
                    assertTrue(lease.fencingToken() > last, "seed " + seed + ": token " + lease.fencingToken() + " after " + last);
                    last = lease.fencingToken();
                } finally {
                    unblock("rnd", blocked);
                }
            }
        } finally {
            clients.forEach(Redlock::close);
        }
    }

    /**
     * The classic trap: each node INCRs its own counter when it grants, and the token is
     * the max of the granting nodes' counters. On the rotation above it hands out token 2 twice.
     */
    @Test
    void naiveMaxOfIncrRepeatsATokenOnTheSameRotation() {
        NaiveMaxOfIncr naive = new NaiveMaxOfIncr(REDIS.cluster().nodes());
        List<Long> tokens = new ArrayList<>();
        for (int[] blocked : ROTATION) {
            block("naive", blocked);
            try {
                tokens.add(naive.acquireToken("naive"));
            } finally {
                unblock("naive", blocked);
            }
        }
        boolean repeatedOrRegressed = IntStream.range(1, tokens.size()).anyMatch(i -> tokens.get(i) <= tokens.get(i - 1));
        assertTrue(repeatedOrRegressed, "expected the naive scheme to repeat a token, got " + tokens);
        assertEquals(List.of(1L, 2L, 2L), tokens.subList(0, 3));
        REDIS.cluster().nodes().forEach(n -> n.command("DEL", "naive-counter"));
    }

    /** Deliberately wrong: SET NX PX, then INCR a per-node counter; token = max over the granting nodes. */
    private static final class NaiveMaxOfIncr {
        private final List<RedisNode> nodes;

        NaiveMaxOfIncr(List<RedisNode> nodes) {
            this.nodes = nodes;
        }

        long acquireToken(String resource) {
            long max = 0;
            int granted = 0;
            String owner = RedlockContext.newOwner();
            for (RedisNode n : nodes) {
                if ("OK".equals(n.command("SET", RedisNodes.PREFIX + resource, owner, "NX", "PX", "5000"))) {
                    granted++;
                    max = Math.max(max, Long.parseLong(n.command("INCR", "naive-counter")));
                }
            }
            for (RedisNode n : nodes) {
                if (owner.equals(n.command("GET", RedisNodes.PREFIX + resource))) n.command("DEL", RedisNodes.PREFIX + resource);
            }
            assertTrue(granted >= 3, "naive lock should still get a quorum");
            return max;
        }
    }
}
