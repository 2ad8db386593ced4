package dev.redlock.chaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import dev.redlock.chaos.history.FaultWindow;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class FaultKindTest {
    @Test
    void theLabelsAreTheNamesTheHistoryAndTheReportsHaveAlwaysShown() {
        assertEquals(List.of("cut", "latency", "blackhole", "reset-peer", "kill", "pause", "failover", "clock-jump",
                        "fast-clock", "client-stall", "resource-latency"),
                Arrays.stream(FaultKind.values()).map(FaultKind::label).toList());
        for (FaultKind k : FaultKind.values()) {
            assertEquals(k.label(), k.toString(), "text built from a kind reads as its label");
            assertEquals(k, FaultKind.ofLabel(k.label()));
        }
        FaultWindow w = new FaultWindow(0, 5_000_000, FaultKind.CLOCK_JUMP, "node 2 clock +900ms", List.of(2),
                List.of(), false);
        assertEquals("clock-jump [node 2 clock +900ms] nodes=[2] 5ms", w.toString());
    }

    @Test
    void anUnknownLabelIsRejectedNamingTheKnownOnes() {
        NoSuchElementException e = assertThrows(NoSuchElementException.class, () -> FaultKind.ofLabel("clock jump"));
        assertTrue(e.getMessage().contains("'clock jump'") && e.getMessage().contains("clock-jump"), e.getMessage());
    }
}
