package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The preflight rules as a pure function of what the nodes said. */
class PreflightRulesTest {
    private static final long T = 1_000_000;   // 1 s tolerance

    private static Map<String, String> healthy() {
        Map<String, String> m = new HashMap<>();
        m.put("redis_version", "7.2.4");
        m.put("role", "master");
        m.put("maxmemory", "0");
        m.put("maxmemory_human", "0B");
        m.put("maxmemory_policy", "noeviction");
        return m;
    }

    private static NodeFacts facts(Map<String, String> info, Map<String, String> config, String configError, long offsetUs) {
        long now = 1_700_000_000_000_000L;
        return new NodeFacts("127.0.0.1:7003", info, config, configError,
                List.of(new NodeFacts.ClockSample(now, now + offsetUs + 500, now + 1000)));
    }

    private static List<PreflightFinding> check(Map<String, String> info) {
        return PreflightRules.check(facts(info, Map.of(), null, 0), T);
    }

    @Test
    void aHealthyMasterHasNoFindings() {
        assertEquals(List.of(), check(healthy()));
    }

    @Test
    void anEvictionPolicyWithMaxmemoryIsRefusedNamingNodeSettingAndValue() {
        Map<String, String> info = healthy();
        info.put("maxmemory", "10485760");
        info.put("maxmemory_human", "10.00M");
        info.put("maxmemory_policy", "volatile-lru");
        List<PreflightFinding> f = check(info);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).refuse());
        assertEquals("127.0.0.1:7003 maxmemory-policy=volatile-lru (maxmemory 10.00M) can evict lock keys; set "
                + "noeviction or use Preflight.WARN", f.get(0).message());
        info.put("maxmemory_policy", "allkeys-lru");
        assertTrue(check(info).get(0).refuse());
        info.put("maxmemory_policy", "noeviction");
        assertEquals(List.of(), check(info), "noeviction: writes fail with OOM instead, nothing is evicted");
        info.put("maxmemory", "0");
        info.put("maxmemory_policy", "volatile-lru");
        assertEquals(List.of(), check(info), "no maxmemory: nothing is evicted whatever the policy");
    }

    @Test
    void aReplicaIsRefusedAndAnUnreadableReadOnlySettingIsReportedAsUnknown() {
        Map<String, String> info = healthy();
        info.put("role", "slave");
        info.put("master_host", "10.0.0.1");
        info.put("master_port", "6379");
        List<PreflightFinding> known = PreflightRules.check(facts(info, Map.of("replica-read-only", "no"), null, 0), T);
        assertEquals(1, known.size());
        assertTrue(known.get(0).refuse());
        assertTrue(known.get(0).message().startsWith("127.0.0.1:7003 role=slave (replica of 10.0.0.1:6379, "
                + "replica-read-only=no)"), known.get(0).message());
        List<PreflightFinding> refused = PreflightRules.check(
                facts(info, Map.of(), "RedisException: ERR unknown command 'CONFIG'", 0), T);
        assertEquals(2, refused.size(), refused.toString());
        assertTrue(refused.get(0).refuse());
        assertFalse(refused.get(1).refuse(), "CONFIG refused is unknown, a warning, never a failure");
        assertTrue(refused.get(1).message().contains("CONFIG GET refused"), refused.get(1).message());
    }

    @Test
    void unknownPolicyWithoutConfigIsAWarningNotAFailure() {
        Map<String, String> info = healthy();
        info.remove("maxmemory_policy");
        List<PreflightFinding> f = PreflightRules.check(facts(info, Map.of(), "ERR unknown command 'CONFIG'", 0), T);
        assertEquals(1, f.size());
        assertFalse(f.get(0).refuse());
        assertTrue(f.get(0).message().contains("maxmemory-policy unknown"), f.get(0).message());
    }

    @Test
    void versionsBelow62AreRefusedTestedServersPassAndTheRestAreAWarningNamingTheServer() {
        Map<String, String> info = healthy();
        info.put("redis_version", "6.0.16");
        assertTrue(check(info).get(0).refuse());
        assertEquals("127.0.0.1:7003 Redis 6.0.16 is not supported (Redis 6.2 or later, or Valkey); upgrade the node "
                + "or use Preflight.WARN", check(info).get(0).message());
        for (String tested : List.of("6.2.11", "6.2.14", "7.0.15", "7.2.6", "7.4.1", "7.9.224")) {
            info.put("redis_version", tested);
            assertEquals(List.of(), check(info), tested);
        }
        info.put("redis_version", "8.2.1");
        List<PreflightFinding> newer = check(info);
        assertFalse(newer.get(0).refuse());
        assertTrue(newer.get(0).message().startsWith("127.0.0.1:7003 Redis 8.2.1: not among the tested servers (Redis "
                + "6.2.11, "), newer.get(0).message());
        info.put("redis_version", "8.0.2");
        assertEquals("127.0.0.1:7003 Redis 8.0.2: the Redis 8.0 line was tested on its pre-release 8.0-m01 only",
                check(info).get(0).message());
        info.put("redis_version", "7.2.4");
        info.put("server_name", "valkey");
        info.put("valkey_version", "8.0.1");
        assertEquals(List.of(), check(info), "Valkey 8.0 was tested, whatever its redis_version says");
        info.put("valkey_version", "7.2.8");
        assertEquals("127.0.0.1:7003 Valkey 7.2.8 (redis_version 7.2.4): not among the tested servers (Redis 6.2.11, "
                + "Redis 7.0.15, Redis 7.2.6, Redis 7.4.1, Redis 8.0-m01, Valkey 8.0.1)", check(info).get(0).message());
        assertFalse(check(info).get(0).refuse());
    }

    @Test
    void aClockBeyondTheToleranceIsRefusedFromTheClientAndFromTheOtherNodes() {
        assertEquals(List.of(), PreflightRules.check(facts(healthy(), Map.of(), null, T - 10_000), T));
        List<PreflightFinding> behind = PreflightRules.check(facts(healthy(), Map.of(), null, -3 * T), T);
        assertEquals(1, behind.size());
        assertTrue(behind.get(0).message().startsWith("127.0.0.1:7003 clock offset -3.0s from this client's clock"),
                behind.get(0).message());
        NodeFacts a = facts(healthy(), Map.of(), null, 5 * T);
        NodeFacts b = new NodeFacts("127.0.0.1:7004", healthy(), Map.of(), null, a.clock());
        NodeFacts c = new NodeFacts("127.0.0.1:7005", healthy(), Map.of(), null,
                List.of(new NodeFacts.ClockSample(0, -2 * T + 500, 1000)));
        List<PreflightFinding> odd = PreflightRules.compareClocks(List.of(a, b, c), T);
        assertEquals(1, odd.size(), odd.toString());
        assertTrue(odd.get(0).message().startsWith("127.0.0.1:7005 clock is -"), odd.get(0).message());
    }

    @Test
    void theClockToleranceFollowsTheFenceArgument() {
        RedlockConfig cfg = RedlockConfig.builder().nodes("redis://127.0.0.1:7001").build();
        // any two nodes within 30 s - 2 x 100 ms of each other: a guess (at most a node's clock + 100 ms) written
        // before a node lost its memory stays below that node's clock after its 30 s quarantine
        assertEquals((30_000_000 - 2 * 100_000) / 2, PreflightRules.clockToleranceUs(cfg));
        assertEquals(-1, PreflightRules.clockToleranceUs(cfg.toBuilder().restartQuarantine(Duration.ZERO).build()));
    }
}
