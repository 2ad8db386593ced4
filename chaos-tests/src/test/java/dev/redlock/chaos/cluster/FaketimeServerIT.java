package dev.redlock.chaos.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.BundledServer;
import dev.redlock.testkit.RedisBinary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node under libfaketime counts only when its clock is seen to move: a preload without effect (a statically linked
 * binary, a library that is not libfaketime) is refused at start, so a clock fault never claims a clock it did not
 * move.
 */
class FaketimeServerIT {
    @Test
    void aPreloadThatMovesNothingIsRefusedAndItsNodeStopped(@TempDir Path dir) throws IOException {
        // ld.so ignores a preload it cannot load and runs the server as it is: the clock stays the host's
        Path notFaketime = Files.writeString(dir.resolve("libnot-faketime.so.1"), "not a shared object");
        long children = liveChildren();
        FaketimeServer.NoEffect e = assertThrows(FaketimeServer.NoEffect.class,
                () -> FaketimeServer.start(notFaketime, RedisBinary.path(), false).close());
        assertTrue(e.getMessage().startsWith("libfaketime has no effect on " + RedisBinary.path() + ": set +60 s, its "
                + "TIME read "), e.getMessage());
        assertEquals(children, liveChildren(), "the node started for the check is stopped");
    }

    private static long liveChildren() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).count();
    }

    @Test
    void aStaticallyLinkedServerIsRefusedUnderRealLibfaketime() {
        Path lib = FaketimeServer.library();
        Assumptions.assumeTrue(lib != null, "libfaketime not installed (apt-get install faketime)");
        Path static70 = BundledServer.REDIS_7_0.path();
        FaketimeServer.NoEffect e = assertThrows(FaketimeServer.NoEffect.class,
                () -> FaketimeServer.start(lib, static70, false).close());
        assertTrue(e.getMessage().contains("no effect on " + static70), e.getMessage());
    }

    @Test
    void aDynamicallyLinkedServerFollowsTheClockAndEachJumpIsVerified() {
        Path lib = FaketimeServer.library();
        Assumptions.assumeTrue(lib != null, "libfaketime not installed (apt-get install faketime)");
        try (FaketimeServer f = FaketimeServer.start(lib, BundledServer.REDIS_6_2.path(), false)) {
            assertTrue(f.verified().startsWith("verified: set +60 s, TIME read +"), f.verified());
            assertTrue(f.measuredOffset().abs().compareTo(Duration.ofSeconds(2)) < 0, "set back after the probe");
            String seen = f.jumpChecked(Duration.ofSeconds(-5));
            assertTrue(seen.startsWith("TIME reads -"), seen);
            assertTrue(Math.abs(f.measuredOffset().toMillis() + 5000) < 2000, f.measuredOffset().toString());
            FaketimeServer.FastClock fast = f.runFast(0.05);
            sleep(Duration.ofMillis(600));
            String ran = fast.end();
            assertTrue(ran.startsWith("clock ran +"), ran);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
