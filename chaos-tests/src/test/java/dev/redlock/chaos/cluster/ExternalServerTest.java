package dev.redlock.chaos.cluster;

import dev.redlock.internal.RedisUri;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.scenario.ScenarioRunner;
import dev.redlock.chaos.scenario.Scenarios;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** External nodes without any process: URI parsing, proxy port matching, refused process faults, runnability. */
class ExternalServerTest {

    @Test
    void parsesNodeUris() {
        ExternalServer s = ExternalServer.of("redis://127.0.0.1:21001");
        assertEquals("127.0.0.1", s.host());
        assertEquals(21001, s.port());
        assertEquals(6379, ExternalServer.of("redis://localhost").port());
        assertEquals("redis://:***@h:1", RedisUri.redact("redis://:secret@h:1"));
        assertEquals("redis://u:***@h:1", RedisUri.redact("redis://u:secret@h:1"));
        assertEquals("redis://***@h:1", RedisUri.redact("redis://secret@h:1"));
        assertThrows(IllegalArgumentException.class, () -> ExternalServer.of("rediss://h:1"));
        assertThrows(IllegalArgumentException.class, () -> ExternalServer.of("http://h:1"));
        assertThrows(IllegalArgumentException.class, () -> ExternalServer.of("redis://h:1/x"));
        assertTrue(!ExternalServer.of("redis://u:secret@h:1").toString().contains("secret"));
    }

    @Test
    void processFaultsAreRefusedClearly() {
        ExternalServer s = ExternalServer.of("redis://127.0.0.1:21001");
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, s::kill);
        assertTrue(e.getMessage().contains("kill -9 of external node redis://127.0.0.1:21001"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, s::restart);
        assertThrows(UnsupportedOperationException.class, s::pause);
        assertThrows(UnsupportedOperationException.class, s::resume);
        assertTrue(s.isRunning() && !s.isPaused() && s.pid() == -1);
        s.close();   // nothing to stop
    }

    @Test
    void listenPortOfEveryAddressForm() {
        assertEquals(21001, ChaosCluster.listenPort("0.0.0.0:21001"));
        assertEquals(21001, ChaosCluster.listenPort("127.0.0.1:21001"));
        assertEquals(21001, ChaosCluster.listenPort("[::]:21001"));
        assertEquals(-1, ChaosCluster.listenPort("nonsense"));
        assertEquals(-1, ChaosCluster.listenPort(null));
    }

    @Test
    void whichScenariosRunOnExternalNodes() {
        String runnable = Scenarios.all().stream().filter(s -> ScenarioRunner.whyNotRunnable(s, true) == null)
                .map(s -> s.id()).collect(Collectors.joining(","));
        assertEquals("1,2,7,9,10,12", runnable);
        assertTrue(Scenarios.all().stream().allMatch(s -> ScenarioRunner.whyNotRunnable(s, false) == null),
                "every scenario runs on embedded nodes");
        // scenario 2 is written for N - quorum = 2
        var three = Scenarios.byId("2").settings().toBuilder().nodes(3).quorum(2).build();
        String why = ScenarioRunner.whyNotRunnable(Scenarios.byId("2").withSettings(three), true);
        assertTrue(why != null && why.contains("exactly 2 nodes beyond the quorum") && why.contains("N=3"), why);
    }
}
