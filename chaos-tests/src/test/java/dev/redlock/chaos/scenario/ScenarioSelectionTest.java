package dev.redlock.chaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** What an id given to {@code run} (or {@code ChaosSuite}) selects: a scenario, or a deployment family. */
class ScenarioSelectionTest {
    private static List<String> ids(String id) {
        return Scenarios.select(id).stream().map(Scenario::id).toList();
    }

    @Test
    void aFamilyIdSelectsTheClaimAndItsTwinsInOrder() {
        assertEquals(List.of("d8a", "d8b"), ids("d8"));
        assertEquals(List.of("d10a", "d10b", "d10c"), ids("d10"));
        assertEquals(List.of("d11a", "d11b"), ids("d11"));
        assertEquals(List.of("d1a", "d1b"), ids("d1"));
    }

    @Test
    void anExactIdSelectsThatScenarioAlone() {
        assertEquals(List.of("d7"), ids("d7"));
        assertEquals(List.of("d8b"), ids("d8b"));
        assertEquals(List.of("4a"), ids("4"));
        assertEquals(List.of("1"), ids("1"), "not 1 with the d1 family or 10-14");
        assertThrows(NoSuchElementException.class, () -> Scenarios.select("d99"));
    }

    @Test
    void theTopologyFamilyFollowsTheDeploymentsInTheCatalogue() {
        List<String> all = Scenarios.all().stream().map(Scenario::id).toList();
        assertEquals(all.indexOf("d7") + 1, all.indexOf("d8a"));
        assertEquals(all.indexOf("d11b") + 1, all.indexOf("W1"));
        assertEquals(7, Scenarios.all().get(all.indexOf("d10a")).settings().nodes());
    }
}
