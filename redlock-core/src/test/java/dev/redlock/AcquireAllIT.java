package dev.redlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Redlock#acquireAll} on 5 real nodes: all or nothing on every node, exclusion with single leases on the same
 * resources, a fencing token per resource that increases across single and multi holders, one-round fencing and the
 * second phase, argument checks, a transition configuration and membership conflicts (a replica's refusal: NodeErrorsIT).
 */
class AcquireAllIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);
    private static final String P = RedisNodes.PREFIX;
    private static final Duration TTL = Duration.ofSeconds(5);

    private static long fenceOn(int node, String resource) {
        String v = REDIS.node(node).command("GET", P + "__fence:" + resource);
        return v.isEmpty() ? -1 : Long.parseLong(v);
    }

    @Test
    void holdsEveryResourceOnEveryNodeWithATokenEachAndReleaseLeavesNothing() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            MultiLease lease = redlock.acquireAll(List.of("c", "a", "b"), TTL);
            assertEquals(List.of("c", "a", "b"), lease.resources());
            assertTrue(lease.isValid());
            Duration left = lease.remainingValidity();
            assertTrue(left.compareTo(TTL) < 0 && !left.isZero(), left.toString());
            for (String r : lease.resources()) assertTrue(lease.fencingToken(r) > 0, r);
            String owner = ((HeldMultiLease) lease).owner();
            // the acquire returns at a quorum of grants: the other nodes' grants may still be landing
            await().atMost(Duration.ofSeconds(5)).until(() -> IntStream.range(0, 5).allMatch(i ->
                    List.of("a", "b", "c").stream().allMatch(r -> REDIS.ownerOn(i, r).equals(owner))));
            assertThrows(IllegalArgumentException.class, () -> lease.fencingToken("d"));
            assertThrows(UnsupportedOperationException.class, () -> lease.resources().add("d"));
            lease.close();
            assertFalse(lease.isValid());
            assertEquals(Duration.ZERO, lease.remainingValidity());
            assertEquals(List.of(), REDIS.awaitNoLockKeys());
            lease.close();   // idempotent
            LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
            assertTrue(e.getMessage().contains("[c, a, b]"), e.getMessage());
        }
    }

    /**
     * Guard: all or nothing. One resource held by someone else on a quorum: the acquisition fails naming the
     * resources, and nothing of ours is left on any node, not even on the nodes where every resource was free.
     */
    @Test
    void oneResourceHeldOnAQuorumGrantsNothingAndLeavesNothing() {
        for (int i = 0; i < 3; i++) REDIS.node(i).command("SET", P + "b", "foreign", "PX", "60000");
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(1).build())) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquireAll(List.of("a", "b"), TTL));
            assertTrue(e.getMessage().startsWith("locks [a, b] unavailable after 2 attempts"), e.getMessage());
            assertEquals(List.of("a", "b"), e.resources());
            assertEquals(2, e.attempts());
            assertEquals(3, e.count(NodeOutcome.Kind.REFUSED), e.getMessage());
            assertTrue(e.outcomes().get(0).detail().contains("'b' held by another owner"), e.outcomes().get(0).detail());
            // nodes 3 and 4 granted both and were released: only the foreign keys remain
            await().atMost(Duration.ofSeconds(5)).until(() -> REDIS.lockKeys().size() == 3);
            for (int i = 0; i < 5; i++) {
                assertEquals("", REDIS.ownerOn(i, "a"), "node " + i);
                assertEquals(i < 3 ? "foreign" : "", REDIS.ownerOn(i, "b"), "node " + i);
            }
        } finally {
            for (int i = 0; i < 3; i++) REDIS.node(i).command("DEL", P + "b");
        }
    }

    @Test
    void aMultiLeaseAndSingleLeasesOnItsResourcesExcludeEachOther() {
        try (Redlock a = Redlock.create(REDIS.config().retryCount(0).build());
             Redlock b = Redlock.create(REDIS.config().retryCount(0).build())) {
            try (MultiLease multi = a.acquireAll(List.of("x", "y"), TTL)) {
                assertTrue(b.tryAcquire("x", TTL).isEmpty(), "x is held by the multi lease");
                assertTrue(b.tryAcquire("y", TTL).isEmpty(), "y is held by the multi lease");
                assertThrows(LockUnavailableException.class, () -> b.acquireAll(List.of("y", "z"), TTL));
                assertTrue(multi.isValid());
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> REDIS.lockKeys().isEmpty());
            try (Lease single = b.acquire("y", TTL)) {
                LockUnavailableException e = assertThrows(LockUnavailableException.class,
                        () -> a.acquireAll(List.of("x", "y"), TTL));
                assertTrue(e.getMessage().contains("'y' held by another owner"), e.getMessage());
                assertTrue(single.isValid());
            }
            a.acquireAll(List.of("x", "y"), TTL).release();
        }
    }

    /** Tokens of each resource strictly increase across holders, single and multi, of two instances (stale hints). */
    @Test
    void tokensOfEachResourceIncreaseAcrossSingleAndMultiHolders() {
        Map<String, Long> last = new HashMap<>();
        try (Redlock one = Redlock.create(REDIS.config().build()); Redlock two = Redlock.create(REDIS.config().build())) {
            for (int i = 0; i < 24; i++) {
                Redlock r = (i / 3) % 2 == 0 ? one : two;
                switch (i % 4) {
                    case 0 -> single(r, "p", last);
                    case 1 -> multi(r, List.of("p", "q"), last);
                    case 2 -> single(r, "q", last);
                    default -> multi(r, List.of("q", "r", "p"), last);
                }
            }
        }
        assertEquals(3, last.size());
    }

    private static void single(Redlock r, String resource, Map<String, Long> last) {
        try (Lease l = r.acquire(resource, TTL)) {
            increases(resource, l.fencingToken(), last);
        }
    }

    private static void multi(Redlock r, List<String> resources, Map<String, Long> last) {
        try (MultiLease l = r.acquireAll(resources, TTL)) {
            for (String resource : resources) increases(resource, l.fencingToken(resource), last);
        }
    }

    private static void increases(String resource, long token, Map<String, Long> last) {
        Long before = last.put(resource, token);
        assertTrue(before == null || token > before, resource + ": token " + token + " after " + before);
    }

    /** The first acquisition has no guesses (second phase); the next guesses and wins in one round. */
    @Test
    void theFirstAcquisitionTakesTheSecondPhaseAndTheNextOneRound() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            long first;
            try (MultiLease l = redlock.acquireAll(List.of("f", "g"), TTL)) {
                first = l.fencingToken("f");
            }
            assertEquals(1, redlock.context().fencePhases(), "no hint yet: the second phase wrote the tokens");
            MultiLease lease = redlock.acquireAll(List.of("f", "g"), TTL);
            assertEquals(1, redlock.context().fencePhases(), "the guesses won: no second phase");
            assertTrue(lease.fencingToken("f") > first);
            String owner = ((HeldMultiLease) lease).owner();
            for (String r : List.of("f", "g")) {
                int written = 0;
                for (int i = 0; i < 5; i++) {
                    if (REDIS.ownerOn(i, r).equals(owner) && fenceOn(i, r) >= lease.fencingToken(r)) written++;
                }
                assertTrue(written >= 3, r + "'s token written on only " + written + " nodes holding our owner");
            }
            lease.release();
        }
    }

    /**
     * Guard: a resource's guess counts only when it beats that resource's fence on every counted grant. Someone
     * else's token far ahead on a quorum for one resource: that resource takes max + 1 in the second phase, the other keeps its guess.
     */
    @Test
    void aFenceAboveTheGuessOnAQuorumForcesMaxPlusOneForThatResource() {
        try (Redlock redlock = Redlock.create(REDIS.config().retryCount(0).build())) {
            redlock.markNodesFresh();   // fences count from 0 on every node: the planted value is the max
            long p;
            long q;
            try (MultiLease l = redlock.acquireAll(List.of("jp", "jq"), TTL)) {
                p = l.fencingToken("jp");
                q = l.fencingToken("jq");
            }
            for (int i = 0; i < 3; i++) REDIS.node(i).command("SET", P + "__fence:jp", Long.toString(p + 1000));
            long phases = redlock.context().fencePhases();
            try (MultiLease l = redlock.acquireAll(List.of("jp", "jq"), TTL)) {
                assertEquals(p + 1001, l.fencingToken("jp"), "must be max(fences) + 1, not the stale guess");
                assertEquals(q + 1, l.fencingToken("jq"), "the other resource keeps its guess");
            }
            assertEquals(phases + 1, redlock.context().fencePhases());
        }
    }

    /**
     * Guard: a resource's guess counts only when every counted grant wrote it. Fences 10 s ahead of the clocks on
     * every node: the next guess lies beyond every node's cap, so no node writes it although it beats every fence;
     * the tokens must go through the second phase, and a client without hints then gets a greater token.
     */
    @Test
    void aGuessNoNodeWroteIsNotATokenEvenAboveEveryFence() {
        long ahead = System.currentTimeMillis() * 1000 + 10_000_000;
        for (int i = 0; i < 5; i++) {
            for (String r : List.of("kp", "kq")) REDIS.node(i).command("SET", P + "__fence:" + r, Long.toString(ahead));
        }
        try (Redlock one = Redlock.create(REDIS.config().retryCount(0).build());
             Redlock fresh = Redlock.create(REDIS.config().retryCount(0).build())) {
            one.acquireAll(List.of("kp", "kq"), TTL).release();                  // learns the hints: ahead + 1
            long phases = one.context().fencePhases();
            long second;
            try (MultiLease l = one.acquireAll(List.of("kp", "kq"), TTL)) {
                second = l.fencingToken("kp");
                assertTrue(second > ahead, "above the planted fence: " + second);
            }
            assertEquals(phases + 1, one.context().fencePhases(), "no node wrote the guess: second phase");
            await().atMost(Duration.ofSeconds(5)).until(() -> REDIS.lockKeys().isEmpty());
            try (MultiLease l = fresh.acquireAll(List.of("kq", "kp"), TTL)) {
                assertTrue(l.fencingToken("kp") > second, l.fencingToken("kp") + " after " + second);
            }
        }
    }

    @Test
    void fencingOffIssuesNoTokens() {
        try (Redlock redlock = Redlock.create(REDIS.config().fencing(false).build());
             MultiLease lease = redlock.acquireAll(List.of("n1", "n2"), TTL)) {
            assertTrue(lease.isValid());
            assertThrows(IllegalStateException.class, () -> lease.fencingToken("n1"));
            assertThrows(IllegalArgumentException.class, () -> lease.fencingToken("n3"));
        }
    }

    @Test
    void badArgumentsAreRejectedByName() {
        try (Redlock redlock = Redlock.create(REDIS.config().restartQuarantine(Duration.ofSeconds(10)).build())) {
            assertEquals("resources must not be null",
                    assertThrows(IllegalArgumentException.class, () -> redlock.acquireAll(null, TTL)).getMessage());
            assertEquals("resources must hold 1..64 names, got 0",
                    assertThrows(IllegalArgumentException.class, () -> redlock.acquireAll(List.of(), TTL)).getMessage());
            List<String> many = IntStream.range(0, 65).mapToObj(i -> "r" + i).toList();
            assertEquals("resources must hold 1..64 names, got 65",
                    assertThrows(IllegalArgumentException.class, () -> redlock.acquireAll(many, TTL)).getMessage());
            assertEquals("resources must be distinct, got 'a' twice", assertThrows(IllegalArgumentException.class,
                    () -> redlock.acquireAll(List.of("a", "b", "a"), TTL)).getMessage());
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquireAll(List.of("a", "__x"), TTL))
                    .getMessage().contains("reserved"));
            List<String> withNull = new ArrayList<>(List.of("a"));
            withNull.add(null);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquireAll(withNull, TTL))
                    .getMessage().startsWith("resource must be"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquireAll(List.of("a"), Duration.ofMillis(2)))
                    .getMessage().startsWith("ttl must be greater than the drift allowance"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> redlock.acquireAll(List.of("a"), Duration.ofSeconds(11)))
                    .getMessage().startsWith("ttl must be <= restartQuarantine"));
            assertThrows(IllegalArgumentException.class, () -> redlock.acquireAllAsync(Collections.emptySet(), TTL));
            redlock.close();
            assertThrows(IllegalStateException.class, () -> redlock.acquireAll(List.of("a"), TTL));
        }
    }

    @Test
    void sixtyFourResourcesAtOnce() {
        List<String> many = IntStream.range(0, 64).mapToObj(i -> "r" + i).toList();
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             MultiLease lease = redlock.acquireAll(many, TTL)) {
            assertEquals(many, lease.resources());
            assertTrue(lease.fencingToken("r63") > 0);
            await().atMost(Duration.ofSeconds(5)).until(() -> REDIS.lockKeys().size() == 5 * 64);
        }
    }

    /** A transition configuration's rounds need a quorum of both lists for every resource at once. */
    @Test
    void aTransitionConfigurationNeedsAQuorumOfBothLists() {
        RedlockConfig transition = REDIS.config().retryCount(0).previousNodes(REDIS.uris().subList(0, 3)).build();
        try (Redlock moving = Redlock.create(transition)) {
            // nodes 0 and 1 hold t2 for someone else: 3 of the 5 new nodes are free, 1 of the 3 previous ones is not
            for (int i = 0; i < 2; i++) REDIS.node(i).command("SET", P + "t2", "foreign", "PX", "60000");
            try {
                LockUnavailableException e = assertThrows(LockUnavailableException.class,
                        () -> moving.acquireAll(List.of("t1", "t2"), TTL));
                assertFalse(e instanceof MembershipConflictException, e.getMessage());
                assertTrue(e.getMessage().contains("no quorum"), e.getMessage());
            } finally {
                for (int i = 0; i < 2; i++) REDIS.node(i).command("DEL", P + "t2");
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> REDIS.lockKeys().isEmpty());
            try (MultiLease l = moving.acquireAll(List.of("t1", "t2"), TTL)) {
                assertTrue(l.isValid());
            }
        }
    }

    /** A client of another node list is refused on nodes that served this one: not retried, the resources named. */
    @Test
    void aMembershipConflictIsNotRetried() {
        try (Redlock five = Redlock.create(REDIS.config().build());
             Redlock four = Redlock.create(REDIS.config().nodes(REDIS.uris().subList(0, 4)).retryCount(5).build())) {
            five.acquire("m", TTL).release();
            MembershipConflictException e = assertThrows(MembershipConflictException.class,
                    () -> four.acquireAll(List.of("m", "n"), TTL));
            assertEquals(1, e.attempts());
            assertTrue(e.getMessage().startsWith("locks [m, n] unavailable"), e.getMessage());
        } finally {
            REDIS.forgetMemberships();
        }
    }
}
