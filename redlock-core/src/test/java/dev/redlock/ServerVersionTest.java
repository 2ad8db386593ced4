package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Server identification from INFO fields, and the README's table of tested servers against the one definition. */
class ServerVersionTest {
    private static ServerVersion redis(String v) {
        return ServerVersion.of(Map.of("redis_version", v));
    }

    @Test
    void redisReleasesAreTheirOwnLine() {
        ServerVersion s = redis("7.4.1");
        assertEquals("Redis", s.flavour());
        assertEquals("7.4", s.line());
        assertFalse(s.preview());
        assertEquals("Redis 7.4.1", s.describe());
        assertEquals(ServerVersion.Support.TESTED, s.support());
        assertEquals("7.4.1", s.testedAs().build());
        assertEquals(ServerVersion.Support.TESTED, redis("6.2.11").support());
        assertEquals(ServerVersion.Support.TESTED, redis("7.0.15").support());
        assertEquals(ServerVersion.Support.TESTED, redis("7.2.6").support());
        assertEquals(ServerVersion.Support.UNSUPPORTED, redis("6.0.16").support());
        assertEquals(ServerVersion.Support.UNSUPPORTED, redis("5.0.14").support());
        assertEquals(ServerVersion.Support.UNTESTED, redis("8.2.1").support());
    }

    @Test
    void aPatchOf200OrMoreIsAPreReleaseOfTheNextLine() {
        ServerVersion m01 = redis("7.9.224");   // Redis 8.0-m01
        assertEquals("8.0", m01.line());
        assertTrue(m01.preview());
        assertEquals("Redis 8.0 pre-release (redis_version 7.9.224)", m01.describe());
        assertEquals(ServerVersion.Support.TESTED, m01.support(), "the matrix ran 8.0-m01");
        ServerVersion rc = redis("6.9.240");    // Redis 7.0-rc1
        assertEquals("7.0", rc.line());
        assertTrue(rc.preview());
        assertEquals(ServerVersion.Support.UNTESTED, rc.support(), "7.0 was tested on a release, not this candidate");
        assertEquals("7.4", redis("7.3.240").line());
        assertEquals("8.6", redis("8.5.240").line());
        ServerVersion ga = redis("8.0.2");
        assertEquals(ServerVersion.Support.UNTESTED, ga.support());
        assertEquals("the Redis 8.0 line was tested on its pre-release 8.0-m01 only", ga.whyUntested());
        ServerVersion unstable = redis("255.255.255");
        assertEquals("Redis unstable branch (redis_version 255.255.255)", unstable.describe());
        assertEquals(ServerVersion.Support.UNTESTED, unstable.support());
    }

    @Test
    void valkeyIsKnownByItsServerNameAndItsOwnVersion() {
        ServerVersion v = ServerVersion.of(Map.of("redis_version", "7.2.4", "server_name", "valkey",
                "valkey_version", "8.0.1"));
        assertEquals("Valkey", v.flavour());
        assertEquals("8.0.1", v.version());
        assertEquals("8.0", v.line());
        assertEquals("Valkey 8.0.1 (redis_version 7.2.4)", v.describe());
        assertEquals(ServerVersion.Support.TESTED, v.support());
        ServerVersion v72 = ServerVersion.of(Map.of("redis_version", "7.2.4", "server_name", "valkey",
                "valkey_version", "7.2.8"));
        assertEquals("7.2", v72.line());
        assertEquals(ServerVersion.Support.UNTESTED, v72.support(), "no Valkey 7.2 in the matrix");
        ServerVersion other = ServerVersion.of(Map.of("redis_version", "7.2.0", "server_name", "otherdb"));
        assertEquals("otherdb", other.flavour());
        assertEquals(ServerVersion.Support.UNTESTED, other.support());
    }

    @Test
    void noVersionIsNoServer() {
        assertNull(ServerVersion.of(Map.of()));
        assertNull(ServerVersion.of(Map.of("redis_version", "unknown")));
    }

    @Test
    void theReadmeTableListsExactlyTheTestedServers() throws IOException {
        List<String> lines = readme();
        int start = lines.indexOf("### Tested servers");
        List<String> rows = new ArrayList<>();
        int i = start + 1;
        while (i < lines.size() && !lines.get(i).startsWith("|")) i++;
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {   // after the header and its rule
            String[] cells = lines.get(i).split("\\|");
            rows.add(cells[1].trim() + " " + cells[2].trim().replace("`", ""));
        }
        List<String> defined = ServerVersion.TESTED.stream().map(t -> t.flavour() + " " + t.line() + " " + t.build()).toList();
        assertEquals(defined, rows, "README.md's table of tested servers (server, build) must list ServerVersion.TESTED");
    }

    /** The repository's README: the nearest one above the working directory that has the section. */
    private static List<String> readme() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path f = dir.resolve("README.md");
            if (Files.isReadable(f)) {
                List<String> lines = Files.readAllLines(f);
                if (lines.contains("### Tested servers")) return lines;
            }
        }
        throw new AssertionError("no README.md with a '### Tested servers' section above " + Path.of("").toAbsolutePath());
    }
}
