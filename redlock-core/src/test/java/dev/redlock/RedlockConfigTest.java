package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Resources;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedlockConfigTest {
    private static final List<String> FIVE = List.of("redis://127.0.0.1:7001", "redis://127.0.0.1:7002",
            "redis://127.0.0.1:7003", "redis://127.0.0.1:7004", "redis://127.0.0.1:7005");

    private static String invalid(Consumer<RedlockConfig.Builder> change) {
        RedlockConfig.Builder b = RedlockConfig.builder().nodes(FIVE);
        change.accept(b);
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void defaults() {
        RedlockConfig c = RedlockConfig.builder().nodes(FIVE).build();
        assertEquals(3, c.quorum());
        assertEquals(0.01, c.driftFactor());
        assertEquals(Duration.ofMillis(2), c.fixedDrift());
        assertEquals(Duration.ofMillis(100), c.nodeTimeout());
        assertEquals(3, c.retryCount());
        assertEquals("redlock:", c.keyPrefix());
        assertTrue(c.fencing());
        assertEquals(Duration.ofSeconds(30), c.restartQuarantine());
        assertEquals(Duration.ZERO, c.maxHold(), "no cap by default");
        assertEquals(2, RedlockConfig.builder().nodes(FIVE.subList(0, 3)).build().quorum());
        assertEquals(1, RedlockConfig.builder().nodes(FIVE.subList(0, 1)).build().quorum());
    }

    @Test
    void quorumMessageNamesFieldRangeAndValue() {
        assertEquals("quorum must satisfy N/2 < quorum <= N (N=5), got 2", invalid(b -> b.quorum(2)));
        assertEquals("quorum must satisfy N/2 < quorum <= N (N=5), got 6", invalid(b -> b.quorum(6)));
        assertEquals(5, RedlockConfig.builder().nodes(FIVE).quorum(5).build().quorum());
    }

    @Test
    void everyFieldIsValidatedByName() {
        assertTrue(invalid(b -> b.driftFactor(0.5)).startsWith("driftFactor must be in [0, 0.5)"));
        assertTrue(invalid(b -> b.driftFactor(-0.1)).startsWith("driftFactor must be in [0, 0.5)"));
        assertTrue(invalid(b -> b.driftFactor(Double.NaN)).startsWith("driftFactor"));
        assertTrue(invalid(b -> b.fixedDrift(Duration.ofMillis(-1))).startsWith("fixedDrift must be in [0, 60s]"));
        assertTrue(invalid(b -> b.nodeTimeout(Duration.ZERO)).startsWith("nodeTimeout must be in (0, 60s]"));
        assertTrue(invalid(b -> b.nodeTimeout(Duration.ofMinutes(2))).contains("got 120s"));
        assertTrue(invalid(b -> b.retryCount(-1)).startsWith("retryCount must be in [0, 10000]"));
        assertTrue(invalid(b -> b.retryDelay(Duration.ofMillis(-5))).startsWith("retryDelay must be in [0, 60s]"));
        assertTrue(invalid(b -> b.retryJitter(null)).startsWith("retryJitter must not be null"));
        assertTrue(invalid(b -> b.keyPrefix("")).startsWith("keyPrefix must be 1..256 characters"));
        assertTrue(invalid(b -> b.keyPrefix("a b")).startsWith("keyPrefix"));
        assertTrue(invalid(b -> b.restartQuarantine(Duration.ofDays(2))).startsWith("restartQuarantine must be in [0, 24h]"));
        // no TTL could be both above the drift allowance (2 ms + 1%) and at most the quarantine
        String tiny = invalid(b -> b.restartQuarantine(Duration.ofMillis(1)));
        assertTrue(tiny.startsWith("restartQuarantine must be 0 (amnesia guard off) or at least") && tiny.contains("3ms")
                && tiny.contains("got 1ms"), tiny);
        assertEquals(Duration.ofMillis(3), RedlockConfig.builder().nodes(FIVE).restartQuarantine(Duration.ofMillis(3))
                .build().restartQuarantine());
        assertTrue(invalid(b -> b.fixedDrift(Duration.ofSeconds(1)).restartQuarantine(Duration.ofSeconds(1)))
                .contains("(1011ms with driftFactor=0.01, fixedDrift=1s)"), "the smallest TTL follows fixedDrift and driftFactor");
    }

    @Test
    void aTransitionConfigurationIsValidated() {
        List<String> seven = new java.util.ArrayList<>(FIVE);
        seven.add("redis://127.0.0.1:7006");
        seven.add("redis://127.0.0.1:7007");
        RedlockConfig t = RedlockConfig.builder().nodes(seven).previousNodes(FIVE).build();
        assertEquals(4, t.quorum());
        assertEquals(3, t.previousQuorum(), "default: a majority of the previous list");
        assertEquals(FIVE, t.previousNodes());
        assertEquals(7, t.allNodeAddresses().size(), "the union: the previous list's nodes are all in the new one");
        assertEquals(3, t.toBuilder().build().previousQuorum(), "toBuilder keeps it");
        assertEquals(FIVE, t.toBuilder().build().previousNodes());
        assertTrue(invalid(b -> b.previousQuorum(3)).startsWith("previousQuorum is set (3) but previousNodes is not"));
        assertTrue(invalid(b -> b.nodes(seven).previousNodes(FIVE).previousQuorum(2))
                .startsWith("previousQuorum must satisfy P/2 < previousQuorum <= P (P=5), got 2"));
        assertTrue(invalid(b -> b.previousNodes(FIVE.get(4), FIVE.get(3), FIVE.get(2), FIVE.get(1), FIVE.get(0)))
                .startsWith("previousNodes must differ from nodes"));
        assertTrue(invalid(b -> b.previousNodes("redis://a:1", "redis://a:1")).startsWith("previousNodes must be distinct"));
        assertTrue(invalid(b -> b.previousNodes("http://x:1")).startsWith("previousNodes[0] must use scheme"));
        assertTrue(t.toString().contains("previousQuorum=3"), t.toString());
        RedlockConfig replaced = RedlockConfig.builder().nodes(FIVE.subList(0, 4)).previousNodes(FIVE.subList(1, 5)).build();
        assertEquals(5, replaced.allNodeAddresses().size(), "replace one node's address: 4 + 1");
    }

    @Test
    void resourceNamesMustBeValidUtf16() {
        String msg = assertThrows(IllegalArgumentException.class, () -> Resources.check("job-\uD800")).getMessage();
        assertTrue(msg.contains("unpaired surrogate") && msg.contains("index 4"), msg);
        assertThrows(IllegalArgumentException.class, () -> Resources.check("job-\uDFFF"));
        assertThrows(IllegalArgumentException.class, () -> Resources.check("\uDE00\uD83D"));
        assertEquals("job-\uD83D\uDE00", Resources.check("job-\uD83D\uDE00"), "a pair is a valid name");
        assertEquals("job-?", Resources.check("job-?"));
    }

    @Test
    void maxHoldIsZeroOrMoreThanNodeTimeoutAndAtMostADay() {
        assertEquals("maxHold must be in [0, 24h], got 25h", invalid(b -> b.maxHold(Duration.ofHours(25))));
        assertEquals("maxHold must be in [0, 24h], got -1s", invalid(b -> b.maxHold(Duration.ofSeconds(-1))));
        assertEquals("maxHold must not be null", invalid(b -> b.maxHold(null)));
        assertEquals("maxHold must be 0 (no cap) or greater than nodeTimeout (100ms), got 100ms",
                invalid(b -> b.maxHold(Duration.ofMillis(100))));
        assertEquals("maxHold must be 0 (no cap) or greater than nodeTimeout (250ms), got 200ms",
                invalid(b -> b.nodeTimeout(Duration.ofMillis(250)).maxHold(Duration.ofMillis(200))));
        assertEquals(Duration.ofMillis(101), RedlockConfig.builder().nodes(FIVE).maxHold(Duration.ofMillis(101)).build().maxHold());
        assertEquals(Duration.ofHours(24), RedlockConfig.builder().nodes(FIVE).maxHold(Duration.ofHours(24)).build().maxHold());
        RedlockConfig capped = RedlockConfig.builder().nodes(FIVE).maxHold(Duration.ofMinutes(10)).build();
        assertEquals(Duration.ofMinutes(10), capped.toBuilder().build().maxHold());
        assertTrue(capped.toString().contains("maxHold=600000ms"), capped.toString());
    }

    @Test
    void nodesAreValidated() {
        assertTrue(invalid(b -> b.nodes(List.of())).startsWith("nodes must list 1..64"));
        assertTrue(invalid(b -> b.nodes("http://x:1")).startsWith("nodes[0] must use scheme redis:// or rediss://"));
        assertTrue(invalid(b -> b.nodes("redis://a:1", "redis://a:1")).startsWith("nodes must be distinct"));
        assertTrue(invalid(b -> b.nodes("redis://a:1", "redis://a:99999")).startsWith("nodes[1]"));
        assertTrue(invalid(b -> b.nodes("redis://a:1/x")).startsWith("nodes[0] database"));
    }

    @Test
    void builderIsReusableAndConfigImmutable() {
        RedlockConfig.Builder b = RedlockConfig.builder().nodes(FIVE);
        RedlockConfig first = b.build();
        b.quorum(5);
        RedlockConfig second = b.build();
        assertEquals(3, first.quorum());
        assertEquals(5, second.quorum());
        assertEquals(first.toString(), first.toBuilder().build().toString());
        assertThrows(UnsupportedOperationException.class, () -> first.nodes().add("redis://x:1"));
    }

    @Test
    void passwordsNeverShown() {
        RedlockConfig c = RedlockConfig.builder()
                .nodes("redis://alice:s3cret-pw@127.0.0.1:7001", "rediss://:other-pw@127.0.0.1:7002", "redis://pw-only@h:3")
                .build();
        assertFalse(c.toString().contains("s3cret-pw"), c.toString());
        assertFalse(c.toString().contains("other-pw"), c.toString());
        assertFalse(c.toString().contains("pw-only"), c.toString());
        assertTrue(c.toString().contains("redis://alice:***@127.0.0.1:7001"), c.toString());
        assertEquals(List.of("redis://alice:***@127.0.0.1:7001", "rediss://***@127.0.0.1:7002", "redis://***@h:3"), c.nodes());
        String msg = invalid(b -> b.nodes("redis://bob:hunter2@bad host:1"));
        assertFalse(msg.contains("hunter2"), msg);
    }

    @Test
    void loadsFromProperties(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("redlock.properties");
        Files.writeString(file, String.join("\n",
                "redlock.nodes = redis://127.0.0.1:7001, redis://127.0.0.1:7002, redis://127.0.0.1:7003",
                "redlock.quorum = 3",
                "redlock.driftFactor = 0.02",
                "redlock.fixedDrift = 5ms",
                "redlock.nodeTimeout = PT0.25S",
                "redlock.retryCount = 7",
                "redlock.retryDelay = 1s",
                "redlock.retryJitter = 40",
                "redlock.keyPrefix = app:",
                "redlock.fencing = false",
                "redlock.restartQuarantine = 1m",
                "redlock.preflight = warn",
                "redlock.previousNodes = redis://127.0.0.1:7001, redis://127.0.0.1:7002",
                "redlock.previousQuorum = 2",
                "redlock.maxHold = 10m",
                "other.key = ignored"));
        RedlockConfig c = RedlockConfig.load(file);
        assertEquals(3, c.nodes().size());
        assertEquals(3, c.quorum());
        assertEquals(0.02, c.driftFactor());
        assertEquals(Duration.ofMillis(5), c.fixedDrift());
        assertEquals(Duration.ofMillis(250), c.nodeTimeout());
        assertEquals(7, c.retryCount());
        assertEquals(Duration.ofSeconds(1), c.retryDelay());
        assertEquals(Duration.ofMillis(40), c.retryJitter());
        assertEquals("app:", c.keyPrefix());
        assertFalse(c.fencing());
        assertEquals(Duration.ofMinutes(1), c.restartQuarantine());
        assertEquals(Preflight.WARN, c.preflight());
        assertEquals(List.of("redis://127.0.0.1:7001", "redis://127.0.0.1:7002"), c.previousNodes());
        assertEquals(2, c.previousQuorum());
        assertEquals(Duration.ofMinutes(10), c.maxHold());
        assertEquals(Preflight.STRICT, RedlockConfig.builder().nodes("redis://127.0.0.1:7001").build().preflight());
    }

    @ParameterizedTest
    @ValueSource(strings = {"redlock.qourum=3", "redlock.retryCount=many", "redlock.fencing=yes", "redlock.nodeTimeout=fast",
            "redlock.preflight=lenient", "redlock.maxHold=forever"})
    void badPropertiesNameTheKey(String line) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader("redlock.nodes=redis://127.0.0.1:7001\n" + line));
        String key = line.substring(0, line.indexOf('='));
        String msg = assertThrows(IllegalArgumentException.class, () -> RedlockConfig.fromProperties(p)).getMessage();
        assertTrue(msg.contains(key), msg);
    }

    @Test
    void nodesPropertyIsRequired() {
        String msg = assertThrows(IllegalArgumentException.class, () -> RedlockConfig.fromProperties(new Properties())).getMessage();
        assertTrue(msg.contains("redlock.nodes"), msg);
    }

    @Test
    void hugeDurationsAreRejectedNamingTheFieldInsteadOfOverflowing() {
        Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
        assertTrue(invalid(b -> b.restartQuarantine(huge)).startsWith("restartQuarantine must be in [0, 24h]"));
        assertTrue(invalid(b -> b.nodeTimeout(huge)).startsWith("nodeTimeout must be in (0, 60s]"));
        assertTrue(invalid(b -> b.retryDelay(huge.negated())).startsWith("retryDelay must be in [0, 60s]"));
    }

    @Test
    void userInfoIsPercentDecodedNotFormDecoded() {
        RedlockConfig c = RedlockConfig.builder().nodes("redis://us%40er:a+b%2Bc%3Ad@127.0.0.1:7001").build();
        assertEquals("us@er", c.nodeAddresses().get(0).username());
        assertEquals("a+b+c:d", c.nodeAddresses().get(0).password(), "a '+' is a plus in a URI, not a space");
        assertTrue(invalid(b -> b.nodes("redis://u:bad%zz@127.0.0.1:1")).contains("nodes[0]"));
    }

    @Test
    void nodesThatResolveToTheSameAddressArePlainDuplicates() {
        assertTrue(invalid(b -> b.nodes("redis://localhost:7001", "redis://127.0.0.1:7001"))
                .startsWith("nodes must be distinct, but nodes[1]"));
        assertTrue(invalid(b -> b.nodes("redis://LOCALHOST:7001/2", "redis://127.0.0.1:7001/2"))
                .startsWith("nodes must be distinct"));
        RedlockConfig.builder().nodes("redis://localhost:7001", "redis://127.0.0.1:7001/1").build();   // another db
        RedlockConfig.builder().nodes("redis://localhost:7001", "redis://127.0.0.1:7002").build();
    }
}
