package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A node answering with an error is a failed vote carrying the error's text: never a hang, never a leaked key.
 * Each case runs with the faulty node(s) among healthy ones, so both "minority errors, lock acquired" and
 * "majority errors, typed failure" are covered.
 */
class NodeErrorsIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    @Test
    void wrongTypeIsAnErrorVoteAndLeavesNoKey() {
        // the resource's fence entry holds a hash: GET answers WRONGTYPE before anything is written
        REDIS.node(0).command("HSET", RedisNodes.PREFIX + "__fence:wt", "not", "a-string");
        try (Redlock redlock = Redlock.create(REDIS.config().quorum(3).retryCount(0).build())) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("wt", Duration.ofSeconds(5)));
            NodeOutcome bad = e.outcomes().get(0);
            assertEquals(NodeOutcome.Kind.ERROR, bad.kind(), e.getMessage());
            assertTrue(bad.detail().contains("WRONGTYPE"), bad.detail());
        }
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Lease lease = redlock.acquire("wt", Duration.ofSeconds(5))) {
            assertTrue(lease.isValid(), "two healthy nodes of three are a quorum");
            assertEquals("", REDIS.ownerOn(0, "wt"));
        }
        REDIS.node(0).command("DEL", RedisNodes.PREFIX + "__fence:wt");
    }

    @Test
    void lockKeyHoldingAHashIsARefusalNotAnOverwrite() {
        REDIS.node(1).command("HSET", RedisNodes.PREFIX + "hash", "f", "v");
        try (Redlock redlock = Redlock.create(REDIS.config().quorum(3).retryCount(0).build())) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("hash", Duration.ofSeconds(5)));
            assertEquals(NodeOutcome.Kind.REFUSED, e.outcomes().get(1).kind(), e.getMessage());
        }
        assertEquals("hash", REDIS.node(1).command("TYPE", RedisNodes.PREFIX + "hash"));
        REDIS.node(1).command("DEL", RedisNodes.PREFIX + "hash");
    }

    @Test
    void oomReadonlyAndNoauthAreErrorVotesWithTheirText() {
        List<RedisNode> extra = new ArrayList<>();
        try {
            RedisNode oom = RedisNode.start(false, "--maxmemory", "1", "--maxmemory-policy", "noeviction");
            extra.add(oom);
            RedisNode readonly = RedisNode.start(false);
            extra.add(readonly);
            readonly.command("REPLICAOF", "127.0.0.1", Integer.toString(REDIS.node(0).port()));
            RedisNode noauth = RedisNode.start(false, "--requirepass", "the-password");
            extra.add(noauth);
            List<String> nodes = List.of(oom.uri(), readonly.uri(), noauth.uri(), REDIS.uris().get(1), REDIS.uris().get(2));
            // preflight off: this test is about the error votes such nodes give (PreflightIT refuses them up front)
            try (Redlock redlock = Redlock.create(REDIS.config().nodes(nodes).quorum(3).retryCount(0)
                    .preflight(Preflight.OFF).build())) {
                LockUnavailableException e = assertThrows(LockUnavailableException.class,
                        () -> redlock.acquire("errs", Duration.ofSeconds(5)));
                assertEquals(NodeOutcome.Kind.ERROR, e.outcomes().get(0).kind(), e.getMessage());
                assertTrue(e.outcomes().get(0).detail().contains("maxmemory"), e.outcomes().get(0).detail());
                assertEquals(NodeOutcome.Kind.ERROR, e.outcomes().get(1).kind(), e.getMessage());
                // the script refuses a replica itself (one with replica-read-only no would take the write)
                assertTrue(e.outcomes().get(1).detail().contains("NOTMASTER"), e.outcomes().get(1).detail());
                assertEquals(NodeOutcome.Kind.ERROR, e.outcomes().get(2).kind(), e.getMessage());
                assertTrue(e.outcomes().get(2).detail().toUpperCase().contains("NOAUTH")
                        || e.outcomes().get(2).detail().toUpperCase().contains("AUTH"), e.outcomes().get(2).detail());
                assertEquals(2, e.count(NodeOutcome.Kind.GRANTED));
            }
            assertEquals("", oom.command("GET", RedisNodes.PREFIX + "errs"));
            assertEquals("", readonly.command("GET", RedisNodes.PREFIX + "errs"));
        } finally {
            extra.forEach(RedisNode::close);
        }
    }

    /**
     * Guard: a replica with {@code replica-read-only no} takes writes (and drops them at its next resync); the script
     * refuses to vote on a node that is not a master, whatever preflight says.
     */
    @Test
    void aWritableReplicaIsAnErrorVoteNotAGrant() {
        try (RedisNode replica = RedisNode.start(false, "--replica-read-only", "no")) {
            replica.command("REPLICAOF", "127.0.0.1", Integer.toString(REDIS.node(0).port()));
            List<String> nodes = List.of(replica.uri(), REDIS.uris().get(1), REDIS.uris().get(2));
            try (Redlock redlock = Redlock.create(REDIS.config().nodes(nodes).quorum(3).retryCount(0)
                    .preflight(Preflight.OFF).build())) {
                // the single and the multi-resource scripts share the check
                for (Executable acquire : List.<Executable>of(() -> redlock.acquire("writable", Duration.ofSeconds(5)),
                        () -> redlock.acquireAll(List.of("writable", "w2"), Duration.ofSeconds(5)))) {
                    LockUnavailableException e = assertThrows(LockUnavailableException.class, acquire);
                    assertEquals(NodeOutcome.Kind.ERROR, e.outcomes().get(0).kind(), e.getMessage());
                    assertTrue(e.outcomes().get(0).detail().contains("NOTMASTER"), e.outcomes().get(0).detail());
                }
            }
            assertEquals("", replica.command("GET", RedisNodes.PREFIX + "writable"));
            assertEquals("", replica.command("GET", RedisNodes.PREFIX + "w2"));
        }
    }
}
