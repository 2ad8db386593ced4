package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.RedisNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Credentials in node URIs work and never leak; owner values are 128 random bits. */
class SecurityIT {
    private static final String SECRET = "Pa55-wOrd-never-printed";

    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(1);

    @Test
    void userAndPasswordInUrisWorkAndNeverAppearInTextOrLogs() throws IOException {
        RedisNode a = RedisNode.start(false, "--requirepass", SECRET);
        RedisNode b = RedisNode.start(false);
        RedisNode c = RedisNode.start(false);
        try {
            b.command("ACL", "SETUSER", "locker", "on", ">" + SECRET, "~*", "&*", "+@all");
            c.command("ACL", "SETUSER", "locker", "on", ">" + SECRET, "~*", "&*", "+@all");
            List<String> nodes = List.of(
                    "redis://:" + SECRET + "@127.0.0.1:" + a.port(),
                    "redis://locker:" + SECRET + "@127.0.0.1:" + b.port(),
                    "redis://locker:" + SECRET + "@127.0.0.1:" + c.port());
            RedlockConfig cfg = REDIS.config().nodes(nodes).quorum(3).retryCount(0).build();
            assertFalse(cfg.toString().contains(SECRET));
            try (Redlock redlock = Redlock.create(cfg)) {
                assertFalse(redlock.toString().contains(SECRET));
                try (Lease lease = redlock.acquire("auth", Duration.ofSeconds(5))) {
                    assertTrue(lease.isValid(), "every node authenticated");
                    assertFalse(lease.toString().contains(SECRET));
                }
            }
            // wrong password: every node fails, and neither the wrong nor the right password is printed
            List<String> wrong = List.of(
                    "redis://:wrong-" + SECRET + "@127.0.0.1:" + a.port(),
                    "redis://locker:wrong-" + SECRET + "@127.0.0.1:" + b.port(),
                    "redis://locker:wrong-" + SECRET + "@127.0.0.1:" + c.port());
            try (Redlock redlock = Redlock.create(REDIS.config().nodes(wrong).quorum(3).retryCount(1).build())) {
                LockUnavailableException e = assertThrows(LockUnavailableException.class,
                        () -> redlock.acquire("auth", Duration.ofSeconds(5)));
                assertEquals(3, e.count(NodeOutcome.Kind.ERROR) + e.count(NodeOutcome.Kind.TIMEOUT), e.getMessage());
                assertFalse(e.getMessage().contains(SECRET), e.getMessage());
                for (NodeOutcome o : e.outcomes()) assertFalse(o.toString().contains(SECRET), o.toString());
                StringWriter trace = new StringWriter();
                e.printStackTrace(new PrintWriter(trace));
                assertFalse(trace.toString().contains(SECRET), "stack trace leaks the password");
            }
        } finally {
            a.close();
            b.close();
            c.close();
        }
        // every log line written so far (ours at debug, Netty's at info) is in target/test-log.txt
        Path log = Path.of("target/test-log.txt");
        if (Files.exists(log)) {
            String text = Files.readString(log);
            assertFalse(text.contains(SECRET), "a log line contains the password");
        }
    }

    @Test
    void ownerValuesAre128RandomBits() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String owner = RedlockContext.newOwner();
            assertTrue(owner.matches("[0-9a-f]{32}"), owner);
            assertTrue(seen.add(owner), "owner value repeated");
        }
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Lease lease = redlock.acquire("owner", Duration.ofSeconds(5))) {
            assertTrue(REDIS.ownerOn(0, "owner").matches("[0-9a-f]{32}"));
            assertEquals(((HeldLease) lease).owner(), REDIS.ownerOn(0, "owner"));
        }
    }
}
