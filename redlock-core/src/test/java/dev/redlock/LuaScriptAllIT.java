package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Scripts;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The guards of the scripts of several resources at once, checked directly on a real node: ACQUIRE_ALL does what
 * ACQUIRE does for the node (identity, membership, quarantine, guess cap) and grants all or nothing; WRITE_FENCE_ALL,
 * EXTEND_ALL and RELEASE_ALL act only where every key (or each key) holds the owner.
 */
class LuaScriptAllIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(1);
    private static final String P = RedisNodes.PREFIX;
    private static Redlock redlock;
    private static NodeClient node;

    @BeforeAll
    static void start() {
        redlock = Redlock.create(REDIS.config().build());
        node = redlock.context().node(0);
    }

    @AfterAll
    static void stop() {
        redlock.close();
    }

    private static RedisNode redis() {
        return REDIS.node(0);
    }

    /** The marker, then each resource's lock key and fence entry. */
    private static List<Object> keys(String... resources) {
        List<Object> k = new ArrayList<>();
        k.add(P + "__node");
        for (String r : resources) {
            k.add(P + r);
            k.add(P + "__fence:" + r);
        }
        return k;
    }

    /** ACQUIRE_ALL of owner-a with a TTL of 60 s, cap 100 ms; one guess per resource. */
    private static List<?> acquireAll(List<Object> keys, String quarantine, String membership, String... guesses)
            throws Exception {
        List<Object> args = new ArrayList<>(List.of("owner-a", "60000", quarantine, "100000", "60000", membership, "120000"));
        args.addAll(List.of(guesses));
        return (List<?>) node.eval(LuaScript.ACQUIRE_ALL, keys, args.toArray()).get(5, TimeUnit.SECONDS);
    }

    private static long run(LuaScript s, List<Object> keys, Object... args) throws Exception {
        return ((Number) node.eval(s, keys, args).get(5, TimeUnit.SECONDS)).longValue();
    }

    private static long number(Object o) {
        return ((Number) o).longValue();
    }

    private static void clean(String... resources) {
        for (String r : resources) redis().command("DEL", P + r, P + "__fence:" + r);
        redis().command("DEL", P + "__node");
    }

    @Test
    void grantsEveryResourceWithItsFenceReadAndWritesTheGuessesWithinTheCap() throws Exception {
        List<?> r = acquireAll(keys("a", "b"), "0", "", "0", "0");
        assertEquals(1L, r.get(0), "granted");
        assertEquals("owner-a", REDIS.ownerOn(0, "a"));
        assertEquals("owner-a", REDIS.ownerOn(0, "b"));
        List<?> fences = (List<?>) r.get(1);
        long nodeUs = number(r.get(6));
        assertEquals(2, fences.size());
        for (Object f : fences) assertTrue(Long.toString(number(f)).matches("\\d{16}") && number(f) <= nodeUs,
                "a new identity's fence reads its clock (us): " + f);
        assertEquals(List.of(0L, 0L), r.get(5), "no guess, nothing written");
        redis().command("DEL", P + "a", P + "b");
        // a guess within the cap is written exactly, one beyond it (a client 60 s ahead) is not: per resource
        String near = Long.toString(nodeUs + 50_000);
        String ahead = Long.toString(nodeUs + 60_000_000L);
        r = acquireAll(keys("a", "b"), "0", "", near, ahead);
        assertEquals(1L, r.get(0));
        assertEquals(List.of(1L, 0L), r.get(5), "the guess for a written, the one for b beyond the cap not");
        assertEquals(near, redis().command("GET", P + "__fence:a"));
        assertTrue(redis().command("GET", P + "__fence:b").isEmpty(), "b's fence untouched");
        assertEquals(near, redis().command("HGET", P + "__node", "hw"), "hw raised to the written guess");
        long pttl = Long.parseLong(redis().command("PTTL", P + "b"));
        assertTrue(pttl > 50_000 && pttl <= 60_000, "every lock key has the TTL: " + pttl);
        clean("a", "b");
    }

    /** Guard: all or nothing. One lock key held by another owner: nothing of ours is written, the holder is named. */
    @Test
    void oneHeldKeyGrantsNothing() throws Exception {
        redis().command("SET", P + "b", "owner-b", "PX", "60000");
        List<?> r = acquireAll(keys("a", "b", "c"), "0", "", "5", "5", "5");
        assertEquals(0L, r.get(0), "refused");
        assertEquals(2L, r.get(8), "the held resource's position");
        assertEquals(Scripts.sha1("owner-b").substring(0, 12), r.get(4), "its holder's fingerprint (SHA-1, 12 digits)");
        assertEquals("", REDIS.ownerOn(0, "a"), "a not granted");
        assertEquals("owner-b", REDIS.ownerOn(0, "b"), "b untouched");
        assertEquals("", REDIS.ownerOn(0, "c"), "c not granted");
        assertEquals(List.of(), r.get(5));
        assertTrue(redis().command("GET", P + "__fence:a").isEmpty(), "no guess written when nothing is granted");
        clean("a", "b", "c");
    }

    /**
     * Guard: the identity check (shared with ACQUIRE): a marker of another replication history (another process, or
     * this one before a promotion) is a new identity, quarantined, and the rewritten marker names this process.
     */
    @Test
    void aMarkerOfAnotherProcessIsANewIdentityAndIsQuarantinedWithNothingGranted() throws Exception {
        String rid = redis().info("replication", "master_replid");
        redis().command("HSET", P + "__node", "run", "someone-else", "rid", "another-history", "born", "0", "hw", "0", "q", "0");
        List<?> r = acquireAll(keys("a", "b"), "5000", "", "0", "0");
        assertEquals(2L, r.get(0), "quarantined as a new identity");
        assertEquals(5000L, r.get(3));
        assertTrue(number(r.get(2)) < 5000, "memory age from now: " + r.get(2));
        assertEquals(redis().runId(), redis().command("HGET", P + "__node", "run"), "the marker names this process now");
        assertEquals("", REDIS.ownerOn(0, "a"));
        assertEquals("", REDIS.ownerOn(0, "b"));
        // the same process and history, marked fresh: granted, fences count from 0
        redis().command("DEL", P + "__node");
        redis().command("HSET", P + "__node", "run", redis().runId(), "rid", rid, "born", "0", "hw", "0", "q", "0");
        r = acquireAll(keys("a", "b"), "5000", "", "1", "1");
        assertEquals(1L, r.get(0));
        assertEquals(List.of(0L, 0L), r.get(1), "marked fresh: no clock floor");
        assertEquals(List.of(1L, 1L), r.get(5));
        clean("a", "b");
    }

    /** Guard: the quarantine the node stored applies to ACQUIRE_ALL, whatever the client asks for. */
    @Test
    void theStoredQuarantineRefusesAYoungMemory() throws Exception {
        assertEquals(2L, acquireAll(keys("a"), "5000", "", "0").get(0), "new identity, quarantine 5 s");
        assertEquals(2L, acquireAll(keys("a", "b"), "0", "", "0", "0").get(0), "the stored q applies to a client asking 0");
        assertEquals("", REDIS.ownerOn(0, "a"));
        clean("a", "b");
    }

    /** Guard: a membership that shares no node list with a standing record is refused (3), nothing recorded or granted. */
    @Test
    void aConflictingMembershipIsRefusedAndNotRecorded() throws Exception {
        assertEquals(1L, acquireAll(keys("x"), "0", "m:old", "0").get(0));
        redis().command("DEL", P + "x");
        List<?> r = acquireAll(keys("x", "y"), "0", "m:new", "0", "0");
        assertEquals(3L, r.get(0));
        assertEquals("old", r.get(7));
        assertEquals("", redis().command("HGET", P + "__node", "m:new"), "nothing recorded for the newcomer");
        assertEquals("", REDIS.ownerOn(0, "x"));
        assertEquals("", REDIS.ownerOn(0, "y"));
        assertEquals(1L, acquireAll(keys("x", "y"), "0", "m:new+old", "0", "0").get(0), "a transition shares 'old'");
        assertTrue(Long.parseLong(redis().command("HGET", P + "__node", "m:new+old")) > 0, "recorded");
        clean("x", "y");
    }

    /** Reads before writes: an error on the second resource's keys leaves nothing of the first behind. */
    @Test
    void aWrongTypeOnALaterKeyLeavesNothingBehind() throws Exception {
        redis().command("HSET", P + "__fence:b", "f", "v");
        ExecutionException e = assertThrows(ExecutionException.class, () -> acquireAll(keys("a", "b"), "0", "", "0", "0"));
        assertTrue(e.getCause().getMessage().contains("WRONGTYPE"), e.getCause().getMessage());
        assertEquals("", REDIS.ownerOn(0, "a"));
        assertEquals("0", redis().command("EXISTS", P + "__node"), "not even the marker");
        clean("a", "b");
    }

    /** Guard: WRITE_FENCE_ALL writes only where the owner holds every lock key; fences only rise; hw to the largest. */
    @Test
    void fencesAreWrittenOnlyByTheHolderOfEveryKeyAndOnlyRise() throws Exception {
        List<Object> keys = keys("a", "b");
        redis().command("SET", P + "a", "owner-a", "PX", "60000");
        redis().command("SET", P + "b", "owner-b", "PX", "60000");
        assertEquals(0, run(LuaScript.WRITE_FENCE_ALL, keys, "owner-a", "60000", "50", "70"));
        assertTrue(redis().command("GET", P + "__fence:a").isEmpty(), "nothing written: b is not ours");
        redis().command("SET", P + "b", "owner-a", "PX", "60000");
        assertEquals(1, run(LuaScript.WRITE_FENCE_ALL, keys, "owner-a", "60000", "50", "70"));
        assertEquals(1, run(LuaScript.WRITE_FENCE_ALL, keys, "owner-a", "60000", "7", "90"));
        assertEquals("50", redis().command("GET", P + "__fence:a"), "a's fence never goes back");
        assertEquals("90", redis().command("GET", P + "__fence:b"));
        assertEquals("90", redis().command("HGET", P + "__node", "hw"));
        long pttl = Long.parseLong(redis().command("PTTL", P + "__fence:a"));
        assertTrue(pttl > 0 && pttl <= 60000, "the entry has the retention as TTL: " + pttl);
        clean("a", "b");
    }

    /** Guard: EXTEND_ALL extends only where the owner holds every lock key, and then every one. */
    @Test
    void extendTouchesNothingUnlessEveryKeyIsTheOwners() throws Exception {
        List<Object> keys = List.of(P + "__node", P + "a", P + "b");
        redis().command("SET", P + "a", "owner-a", "PX", "1000");
        redis().command("SET", P + "b", "owner-b", "PX", "1000");
        assertEquals(0, run(LuaScript.EXTEND_ALL, keys, "owner-a", "60000", "", "0"));
        assertTrue(Long.parseLong(redis().command("PTTL", P + "a")) <= 1000, "a not extended: b is not ours");
        redis().command("SET", P + "b", "owner-a", "PX", "1000");
        assertEquals(1, run(LuaScript.EXTEND_ALL, keys, "owner-a", "60000", "m:mine", "120000"));
        assertTrue(Long.parseLong(redis().command("PTTL", P + "a")) > 1000);
        assertTrue(Long.parseLong(redis().command("PTTL", P + "b")) > 1000);
        assertTrue(Long.parseLong(redis().command("HGET", P + "__node", "m:mine")) > 0, "the membership record refreshed");
        redis().command("DEL", P + "a");
        assertEquals(0, run(LuaScript.EXTEND_ALL, keys, "owner-a", "60000", "", "0"), "a key gone: not extended");
        clean("a", "b");
    }

    /** Guard: RELEASE_ALL deletes each key that holds the owner and no other. */
    @Test
    void releaseDeletesOnlyTheOwnersKeys() throws Exception {
        redis().command("SET", P + "a", "owner-a", "PX", "60000");
        redis().command("SET", P + "b", "owner-b", "PX", "60000");
        assertEquals(1, run(LuaScript.RELEASE_ALL, List.of(P + "a", P + "b", P + "c"), "owner-a", "0", "c1", "c2", "c3"));
        assertEquals("", REDIS.ownerOn(0, "a"));
        assertEquals("owner-b", REDIS.ownerOn(0, "b"));
        clean("a", "b");
    }
}
