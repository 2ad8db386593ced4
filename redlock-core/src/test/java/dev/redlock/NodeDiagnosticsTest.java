package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.internal.Diagnostics;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The diagnostics bridge gives the library's own rules and its own command list, read from the scripts. */
class NodeDiagnosticsTest {

    @Test
    void everyCommandOfEveryScriptIsListedAsRequired() {
        List<Diagnostics.CommandUse> uses = Diagnostics.commands();
        for (LuaScript s : LuaScript.values()) {
            Matcher m = Pattern.compile("redis\\.p?call\\('([A-Z]+)'").matcher(s.source());
            while (m.find()) {
                String cmd = m.group(1);
                assertTrue(uses.stream().anyMatch(u -> u.required() && (u.command().equals(cmd)
                        || u.command().startsWith(cmd + " "))), cmd + " of " + s + " missing from " + uses);
            }
        }
        assertTrue(uses.stream().anyMatch(u -> u.command().equals("PUBSUB NUMSUB")), uses.toString());
        Diagnostics.CommandUse evalsha = uses.stream().filter(u -> u.command().equals("EVALSHA")).findFirst().orElseThrow();
        assertTrue(evalsha.required());
        Diagnostics.CommandUse config = uses.stream().filter(u -> u.command().equals("CONFIG GET")).findFirst().orElseThrow();
        assertTrue(!config.required(), "preflight reports a refused CONFIG as unknown, never as a failure");
    }

    @Test
    void preflightThroughTheBridgeIsThePreflightOfTheLibrary() {
        RedlockConfig cfg = RedlockConfig.builder().nodes("redis://127.0.0.1:7001", "redis://127.0.0.1:7002").build();
        Map<String, String> evicting = Map.of("redis_version", "6.2.11", "role", "master", "maxmemory", "104857600",
                "maxmemory_policy", "volatile-lru");
        Map<String, String> fine = Map.of("redis_version", "7.2.4", "role", "master", "maxmemory", "0",
                "maxmemory_policy", "noeviction");
        List<Diagnostics.Finding> found = Diagnostics.preflight(List.of(
                new Diagnostics.Facts("127.0.0.1:7001", evicting, Map.of(), null, List.of()),
                new Diagnostics.Facts("127.0.0.1:7002", fine, Map.of(), null, List.of())), cfg);
        List<PreflightFinding> direct = PreflightRules.check(new NodeFacts("127.0.0.1:7001", evicting, Map.of(), null,
                List.of()), PreflightRules.clockToleranceUs(cfg));
        assertEquals(direct.stream().map(PreflightFinding::message).toList(), found.stream().map(Diagnostics.Finding::message).toList());
        assertTrue(found.get(0).refuse());
        assertEquals(PreflightRules.clockToleranceUs(cfg), Diagnostics.clockToleranceUs(cfg));
        assertEquals("6.2.11", Diagnostics.parseInfo("# Server\r\nredis_version:6.2.11\r\n").get("redis_version"));
    }

    @Test
    void theServerIsNamedAsTheVersionCheckNamesIt() {
        assertEquals(new Diagnostics.Server("Valkey 8.0.1 (redis_version 7.2.4)", true), Diagnostics.server(Map.of(
                "redis_version", "7.2.4", "server_name", "valkey", "valkey_version", "8.0.1")));
        assertEquals(new Diagnostics.Server("Redis 8.2.1", false), Diagnostics.server(Map.of("redis_version", "8.2.1")));
        assertEquals(null, Diagnostics.server(Map.of("role", "master")));
    }
}
