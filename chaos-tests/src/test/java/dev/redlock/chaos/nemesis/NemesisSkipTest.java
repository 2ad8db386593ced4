package dev.redlock.chaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.nemesis.FaultKind;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NemesisSkipTest {
    @Test
    void theSkipPropertyNamesKindsByTheirLabels() {
        assertEquals(Set.of(FaultKind.KILL, FaultKind.CLOCK_JUMP), Nemesis.parseSkip(" kill, clock-jump ,"));
        assertEquals(Set.of(), Nemesis.parseSkip(""));
    }

    @Test
    void aMisspelledKindIsAnErrorNotAFaultSilentlyLeftIn() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Nemesis.parseSkip("kill,clock_jump"));
        assertTrue(e.getMessage().contains(Nemesis.SKIP_PROPERTY) && e.getMessage().contains("clock_jump")
                && e.getMessage().contains("clock-jump"), e.getMessage());
    }
}
