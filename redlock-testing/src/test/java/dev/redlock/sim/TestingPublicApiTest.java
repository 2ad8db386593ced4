package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.PublicTypes;
import dev.redlock.sim.simulator.Simulator;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The module's public surface is what its README documents; the machinery stays package-private. */
class TestingPublicApiTest {

    @Test
    void onlyTheDocumentedTypesArePublic() throws Exception {
        assertEquals(Set.of("InMemoryRedlock", "InMemoryRedlock$Builder", "LinkDelay", "Persistence", "SimClient", "SimConnection", "SimConnectionException",
                "SimNetwork", "SimNode", "SimNode$Builder", "SimRedisException", "SimScheduler", "SimStalledException",
                "SimTrace", "SimTransport"), PublicTypes.in(SimNode.class, "dev.redlock.sim"));
        assertEquals(Set.of("Simulator", "SimulationResult", "Violation", "Violation$Kind"),
                PublicTypes.in(Simulator.class, "dev.redlock.sim.simulator"));
    }

    @Test
    void buildersNameTheFieldAndTheRange() {
        SimScheduler time = new SimScheduler(1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimNode.builder(time, "n").port(0)).getMessage().startsWith("port must be in 1..65535"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimNode.builder(time, "n").version("5.0.0")).getMessage().startsWith("version must be"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimNode.builder(time, "n").replicationLag(Duration.ofMillis(-1))).getMessage().startsWith("replicationLag must be >= 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LinkDelay.uniform(Duration.ofMillis(2), Duration.ofMillis(1))).getMessage().startsWith("max must be >= min"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimNode.create(time, "n").clockRate(-1)).getMessage().startsWith("clock rate must be >= 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> InMemoryRedlock.builder().nodes(10)).getMessage().startsWith("nodes must be in 1..9"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Simulator.of(0)).getMessage().startsWith("ops must be >= 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> time.limitTasksPerInstant(0)).getMessage().startsWith("tasks must be >= 1"));
    }
}
