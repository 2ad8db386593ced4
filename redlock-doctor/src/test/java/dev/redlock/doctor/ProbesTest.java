package dev.redlock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Diagnostics;
import dev.redlock.internal.resp.RedisConnectionException;
import dev.redlock.internal.resp.RedisErrorException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Every command the library sends has a harmless probe, and replies are read as the ACL meant them. */
class ProbesTest {

    @Test
    void everyCommandTheLibrarySendsHasAProbe() {
        List<Diagnostics.CommandUse> uses = Diagnostics.commands();
        assertTrue(uses.size() >= 15, uses.toString());
        for (Diagnostics.CommandUse u : uses) {
            if (u.command().equals("SUBSCRIBE")) continue;   // probed on the subscriber connection
            assertNotNull(Probes.form(u.command(), "redlock:__doctor:x", "redlock:__released:__doctor-x"),
                    "no harmless probe for " + u.command() + " (used by " + u.usedBy() + ")");
        }
    }

    @Test
    void writeProbesCannotWrite() {
        // SET with expiry 0 and HSET with an odd field list are refused when they run, after the ACL check
        assertEquals(List.of("SET", "k", "x", "PX", "0"), List.of(Probes.form("SET", "k", "c")));
        assertEquals(5, Probes.form("HSET", "k", "c").length);
        assertEquals(Probes.UNKNOWN_SHA, Probes.form("EVALSHA", "k", "c")[1]);
    }

    @Test
    void repliesAreClassified() {
        assertEquals(CommandCheck.Status.DENIED, Probes.classify(new CompletionException(new RedisErrorException(
                "NOPERM this user has no permissions to run the 'evalsha' command or its subcommand"))));
        assertEquals(CommandCheck.Status.UNAVAILABLE, Probes.classify(new RedisErrorException(
                "ERR unknown command `CONFIG`, with args beginning with: `GET`, ")));
        assertEquals(CommandCheck.Status.PERMITTED, Probes.classify(new RedisErrorException("NOSCRIPT No matching script.")));
        assertEquals(CommandCheck.Status.PERMITTED, Probes.classify(new RedisErrorException(
                "READONLY You can't write against a read only replica.")));
        assertEquals(CommandCheck.Status.UNKNOWN, Probes.classify(new RedisConnectionException("connection lost")));
    }

    @Test
    void theGrantNamesWhatIsMissing() {
        CommandCheck cmd = new CommandCheck("PUBSUB NUMSUB", "", true, CommandCheck.Status.DENIED,
                "NOPERM User app has no permissions to run the 'pubsub|numsub' command");
        assertEquals("ACL SETUSER app +pubsub|numsub", NodeDescriptions.grant(cmd, "app", "redlock:"));
        CommandCheck key = new CommandCheck("GET", "", true, CommandCheck.Status.DENIED, "NOPERM No permissions to access a key");
        assertEquals("ACL SETUSER monkey ~redlock:*", NodeDescriptions.grant(key, "monkey", "redlock:"));
        CommandCheck key62 = new CommandCheck("GET", "", true, CommandCheck.Status.DENIED,
                "NOPERM this user has no permissions to access one of the keys used as arguments");
        assertEquals("ACL SETUSER app ~locks:*", NodeDescriptions.grant(key62, "app", "locks:"));
        CommandCheck channel = new CommandCheck("PUBLISH", "", true, CommandCheck.Status.DENIED,
                "NOPERM No permissions to access a channel");
        assertEquals("ACL SETUSER app &redlock:*", NodeDescriptions.grant(channel, "app", "redlock:"));
    }

    @Test
    void requiredDenialsFailOptionalOnesWarnAndScriptsNeedALoader() {
        List<CommandCheck> checks = List.of(
                new CommandCheck("EVALSHA", "every lock call", true, CommandCheck.Status.PERMITTED, "NOSCRIPT"),
                new CommandCheck("SCRIPT LOAD", "loading", false, CommandCheck.Status.DENIED, "NOPERM x"),
                new CommandCheck("EVAL", "fallback", false, CommandCheck.Status.UNAVAILABLE, "ERR unknown command"),
                new CommandCheck("CONFIG GET", "preflight", false, CommandCheck.Status.DENIED, "NOPERM y"),
                new CommandCheck("SET", "scripts", true, CommandCheck.Status.DENIED, "NOPERM z"));
        RoundTrips rt = new RoundTrips(10, Duration.ZERO, Duration.ZERO, Duration.ZERO,
                Duration.ZERO, 0, 0, null);
        List<Finding> f = NodeDescriptions.ownFindings("h:1", "app", "redlock:", checks, rt);
        assertEquals(4, f.stream().filter(x -> x.check().equals("acl")).count() - 1, f.toString());
        assertTrue(f.stream().anyMatch(x -> x.fails() && x.message().contains("may not run SET")), f.toString());
        assertTrue(f.stream().anyMatch(x -> !x.fails() && x.message().contains("may not run CONFIG GET")), f.toString());
        assertTrue(f.stream().anyMatch(x -> x.fails() && x.message().contains("neither SCRIPT LOAD nor EVAL")), f.toString());
    }
}
