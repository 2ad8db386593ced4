package dev.redlock.chaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.redlock.chaos.history.History;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckerCompositionTest {
    private static Checker fixed(String name, Validity v) {
        return new Checker() {
            @Override
            public Result check(History h) {
                return Result.of(name, v, List.of(), Map.of());
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    private static final Checker CRASHING = new Checker() {
        @Override
        public Result check(History h) {
            throw new IllegalStateException("boom");
        }

        @Override
        public String name() {
            return "crashing";
        }
    };

    private final History empty = new History(5, 3);

    @Test
    void validOnlyWhenEveryPartIsValid() {
        Result r = Checker.compose("all", List.of(fixed("a", Validity.VALID), fixed("b", Validity.VALID))).check(empty);
        assertEquals(Validity.VALID, r.validity());
        assertEquals(2, r.parts().size());
    }

    @Test
    void invalidBeatsUnknownBeatsValid() {
        assertEquals(Validity.UNKNOWN, Checker.compose("x", List.of(fixed("a", Validity.VALID),
                fixed("b", Validity.UNKNOWN))).check(empty).validity());
        assertEquals(Validity.INVALID, Checker.compose("x", List.of(fixed("a", Validity.UNKNOWN),
                fixed("b", Validity.INVALID), fixed("c", Validity.VALID))).check(empty).validity());
        assertEquals(Validity.INVALID, Checker.compose("x", List.of(fixed("a", Validity.INVALID),
                fixed("b", Validity.UNKNOWN))).check(empty).validity());
        assertEquals(Validity.INVALID, Validity.UNKNOWN.and(Validity.INVALID));
        assertEquals(Validity.UNKNOWN, Validity.VALID.and(Validity.UNKNOWN));
    }

    @Test
    void aCrashedCheckerIsUnknownNeverAPass() {
        Result r = Checker.compose("x", List.of(fixed("a", Validity.VALID), CRASHING)).check(empty);
        assertEquals(Validity.UNKNOWN, r.validity());
        Result crashed = r.part("crashing");
        assertNotNull(crashed);
        assertEquals(Validity.UNKNOWN, crashed.validity());
        assertEquals("checker-crashed", crashed.anomalies().get(0).kind());
    }

    @Test
    void aCrashDoesNotHideAnInvalidPart() {
        Result r = Checker.compose("x", List.of(CRASHING, fixed("b", Validity.INVALID))).check(empty);
        assertEquals(Validity.INVALID, r.validity());
    }

    @Test
    void standardCheckerOnAnEmptyHistoryIsUnknownBecauseNothingWasTried() {
        Result r = Checker.standard().check(empty);
        assertEquals(Validity.UNKNOWN, r.validity());
        assertEquals(Validity.VALID, r.part(MutualExclusionChecker.NAME).validity());
        assertEquals(Validity.UNKNOWN, r.part(LivenessChecker.NAME).validity());
    }
}
