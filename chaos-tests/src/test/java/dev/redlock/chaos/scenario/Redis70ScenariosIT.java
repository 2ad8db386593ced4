package dev.redlock.chaos.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.cluster.FaketimeServer;
import dev.redlock.chaos.cluster.Toxiproxy;
import dev.redlock.testkit.BundledServer;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scenarios whose set-up depends on the server, on the bundled Redis 7.0.15 (on every machine, whatever the
 * default server is): a replica's first sync, which 7.0 starts diskless after a 5 s delay by default (d3; d8a and
 * d9a, whose failover and failback also read the promoted node's replication id), and clock
 * faults on a statically linked binary, which libfaketime cannot move (5, 6, d5): those must run simulated and say
 * so, never claim {@code faketime}.
 */
@Tag("chaos")
class Redis70ScenariosIT {

    @ParameterizedTest(name = "{0} on Redis 7.0.15")
    @ValueSource(strings = {"d3", "d8a", "d9a", "5", "6", "d5"})
    void holdsItsClaimAndSaysHowItsClockFaultRan(String id) {
        Scenario s = Scenarios.byId(id);
        ScenarioResult r = ScenarioRunner.run(s, Toxiproxy.shared(), List.of(), BundledServer.REDIS_7_0.path());
        System.out.println(r.describe());
        assertTrue(r.passed(), r::describe);
        if (s.settings().clockNode() >= 0) {
            String expected = FaketimeServer.library() == null ? "simulated-ttl (" + FaketimeServer.whyNoLibrary() + ")"
                    : "simulated-ttl (libfaketime has no effect on " + BundledServer.REDIS_7_0.path();
            assertTrue(r.clockMode().startsWith(expected), r.clockMode());
        }
    }
}
