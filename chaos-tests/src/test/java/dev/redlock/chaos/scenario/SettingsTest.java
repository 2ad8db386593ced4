package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The settings builder: its defaults, the fields it derives, its validation, and copies. */
class SettingsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        Settings s = Settings.builder().build();
        assertEquals(5, s.nodes());
        assertEquals(3, s.quorum());
        assertEquals(0.01, s.driftFactor());
        assertEquals(ms(2), s.fixedDrift());
        assertEquals(ms(300), s.ttl());
        assertEquals(ms(250), s.nodeTimeout());
        assertEquals(2, s.clients());
        assertEquals(Duration.ofSeconds(2), s.duration());
        assertEquals(2, s.rounds());
        assertEquals(0, s.seed());
        assertEquals(false, s.aof());
        assertEquals(ms(600), s.restartQuarantine(), "guard on: 2 x TTL");
        assertTrue(s.guardOn());
        assertEquals(-1, s.clockNode());
        assertEquals(Set.of(), s.ownProxies());
    }

    @Test
    void theQuarantineIsTwiceTheTtlUnlessSetWhateverTheOrderOfTheCalls() {
        assertEquals(ms(1000), Settings.builder().ttl(ms(500)).build().restartQuarantine());
        assertEquals(ms(1000), Settings.builder().rounds(1).ttl(ms(500)).aof(true).build().restartQuarantine());
        for (Duration explicit : new Duration[] {Duration.ZERO, ms(700), Duration.ofSeconds(3)}) {
            Settings ttlFirst = Settings.builder().ttl(ms(500)).restartQuarantine(explicit).build();
            Settings quarantineFirst = Settings.builder().restartQuarantine(explicit).ttl(ms(500)).build();
            assertEquals(explicit, ttlFirst.restartQuarantine());
            assertEquals(ttlFirst, quarantineFirst, "the order of the calls does not matter");
        }
        assertEquals(false, Settings.builder().restartQuarantine(Duration.ZERO).build().guardOn(), "ZERO turns it off");
    }

    @Test
    void aCopyKeepsADerivedQuarantineDerivedAndAnExplicitOneExplicit() {
        Settings derived = Settings.builder().ttl(ms(500)).build();
        assertEquals(ms(800), derived.toBuilder().ttl(ms(400)).build().restartQuarantine(), "follows the new TTL");
        Settings explicit = Settings.builder().ttl(ms(500)).restartQuarantine(Duration.ofSeconds(2)).build();
        assertEquals(Duration.ofSeconds(2), explicit.toBuilder().ttl(ms(400)).build().restartQuarantine());
        Settings off = Settings.builder().restartQuarantine(Duration.ZERO).ttl(ms(500)).build();
        assertEquals(Duration.ZERO, off.toBuilder().ttl(ms(400)).build().restartQuarantine(), "stays off");
    }

    @Test
    void theQuorumIsAMajorityOfTheNodesUnlessSet() {
        assertEquals(2, Settings.builder().nodes(3).build().quorum());
        assertEquals(2, Settings.builder().build().toBuilder().nodes(3).build().quorum(), "a copy re-derives it");
        Settings four = Settings.builder().quorum(4).nodes(5).build();
        assertEquals(4, four.quorum());
        assertEquals(4, four.toBuilder().nodes(7).build().quorum(), "a copy keeps an explicit quorum");
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                bad("nodes must be in [1, 64], got 0", b -> b.nodes(0)),
                bad("nodes must be in [1, 64], got 65", b -> b.nodes(65)),
                bad("quorum must satisfy N/2 < quorum <= N (N=5), got 2", b -> b.quorum(2)),
                bad("quorum must satisfy N/2 < quorum <= N (N=5), got 6", b -> b.quorum(6)),
                bad("driftFactor must be in [0, 0.5), got -0.1", b -> b.driftFactor(-0.1)),
                bad("driftFactor must be in [0, 0.5), got 0.5", b -> b.driftFactor(0.5)),
                bad("driftFactor must be in [0, 0.5), got NaN", b -> b.driftFactor(Double.NaN)),
                bad("fixedDrift must be in [0, 60s], got -1ms", b -> b.fixedDrift(ms(-1))),
                bad("fixedDrift must not be null", b -> b.fixedDrift(null)),
                bad("ttl must be in (0, 24h], got 0ms", b -> b.ttl(Duration.ZERO)),
                bad("ttl must be in (0, 24h], got 25h", b -> b.ttl(Duration.ofHours(25))),
                bad("ttl must be in (0, 24h], got null", b -> b.ttl(null)),
                bad("ttl must be at least 1ms and greater than the drift allowance ttl*driftFactor+fixedDrift (2ms), "
                        + "got 500000ns", b -> b.ttl(Duration.ofNanos(500_000)).driftFactor(0).restartQuarantine(Duration.ZERO)),
                bad("ttl must be at least 1ms and greater than the drift allowance ttl*driftFactor+fixedDrift (20ms), "
                        + "got 20ms", b -> b.ttl(ms(20)).driftFactor(0).fixedDrift(ms(20))),
                bad("nodeTimeout must be in (0, 60s], got 0ms", b -> b.nodeTimeout(Duration.ZERO)),
                bad("nodeTimeout must be in (0, 60s], got 61s", b -> b.nodeTimeout(Duration.ofSeconds(61))),
                bad("clients must be >= 1, got 0", b -> b.clients(0)),
                bad("duration must be >= 0, got -1ms", b -> b.duration(ms(-1))),
                bad("duration must be >= 0, got null", b -> b.duration(null)),
                bad("rounds must be >= 1, got 0", b -> b.rounds(0)),
                bad("restartQuarantine must be 0 (guard off) or at least the ttl (300ms): the clients refuse a ttl "
                        + "above the quarantine while the guard is on; got 299ms", b -> b.restartQuarantine(ms(299))),
                bad("restartQuarantine must be in [0, 24h], got 26h", b -> b.ttl(Duration.ofHours(13))),
                bad("restartQuarantine must be in [0, 24h], got -1ms", b -> b.restartQuarantine(ms(-1))),
                bad("restartQuarantine must not be null", b -> b.restartQuarantine(null)),
                bad("clockNode must be in [-1, N) (N=5; -1: none), got 5", b -> b.clockNode(5)),
                bad("clockNode must be in [-1, N) (N=3; -1: none), got -2", b -> b.nodes(3).clockNode(-2)),
                bad("ownProxies must hold clients in [0, clients) (clients=2), got 2", b -> b.ownProxies(Set.of(0, 2))),
                bad("ownProxies must hold clients in [0, clients) (clients=2), got -1", b -> b.ownProxies(Set.of(-1))),
                bad("ownProxies must not be null", b -> b.ownProxies(null)));
    }

    private static Arguments bad(String message, Consumer<Settings.Builder> change) {
        return Arguments.of(message, change);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void eachInvalidValueIsRefusedWithItsFieldAndRange(String message, Consumer<Settings.Builder> change) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            Settings.Builder b = Settings.builder();
            change.accept(b);
            b.build();
        });
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void theEdgesOfEachRangeAreAccepted() {
        Settings s = Settings.builder().nodes(1).quorum(1).driftFactor(0).fixedDrift(Duration.ZERO).ttl(ms(1))
                .nodeTimeout(Duration.ofSeconds(60)).clients(1).duration(Duration.ZERO).rounds(1).clockNode(0)
                .ownProxies(Set.of(0)).restartQuarantine(ms(1)).build();
        assertEquals(ms(1), s.restartQuarantine(), "a quarantine equal to the TTL");
        assertEquals(33, Settings.builder().nodes(64).clockNode(63).build().quorum());
    }

    @Test
    void aCopyRoundTripsEveryScenariosSettings() {
        Settings custom = Settings.builder().nodes(7).quorum(5).driftFactor(0.03).fixedDrift(ms(4)).ttl(ms(700))
                .nodeTimeout(ms(90)).clients(4).duration(ms(1500)).rounds(3).seed(42).aof(true)
                .restartQuarantine(Duration.ofSeconds(5)).clockNode(6).ownProxies(Set.of(1, 3)).build();
        for (Settings s : Stream.concat(Stream.of(custom, Settings.builder().build()),
                Scenarios.all().stream().map(Scenario::settings)).toList()) {
            Settings copy = s.toBuilder().build();
            assertEquals(s, copy);
            assertEquals(s.hashCode(), copy.hashCode());
            assertEquals(s.toString(), copy.toString());
            assertEquals(s.ownProxies(), copy.ownProxies());
            assertEquals(s.clockNode(), copy.clockNode());
        }
        assertEquals(ms(700), custom.ttl());
        assertEquals(42, custom.toBuilder().build().seed());
    }

    @Test
    void theSettingsDoNotChangeWithTheBuilderOrTheSetTheyWereGiven() {
        Set<Integer> own = new HashSet<>(Set.of(0));
        Settings.Builder b = Settings.builder().ownProxies(own);
        Settings first = b.build();
        own.add(1);
        b.clients(3).ttl(ms(400));
        assertEquals(Set.of(0), first.ownProxies());
        assertEquals(2, first.clients());
        assertEquals(ms(300), first.ttl());
        assertEquals(3, b.build().clients(), "the builder stays usable after build()");
    }
}
