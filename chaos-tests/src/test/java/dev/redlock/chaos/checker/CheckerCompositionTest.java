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

    @Test
    void standardCheckerJudgesTheGroundTruthAndTheTokenOrder() {
        // a lease believed over [100, 400] while only 2 of 5 nodes held its value from 300 on, and a repeated token
        Histories h = new Histories()
                .lease(0, "c0#1", 1, 80, 100, 300, 400).value("c0#1", "v1")
                .held(0, 90, 410, 5, "v1").held(1, 90, 410, 5, "v1").held(2, 90, 300, 5, "v1").held(2, 300, 500, 5, "")
                .held(3, 0, 500, 5, "").held(4, 0, 500, 5, "")
                .lease(1, "c1#1", 1, 580, 600, 300, 700).value("c1#1", "v2")
                .held(0, 590, 710, 5, "v2").held(1, 590, 710, 5, "v2").held(2, 590, 710, 5, "v2");
        Result r = Checker.standard().check(h.history());
        assertEquals(Validity.INVALID, r.part(GroundTruthChecker.NAME).validity());
        assertEquals(Validity.INVALID, r.part(TokenOrderChecker.NAME).validity());
        assertEquals(Validity.VALID, r.part(KeyLeakChecker.NAME).validity());
        assertEquals(1.0, r.metric("believedWithoutMajority"));
        assertEquals(1.0, r.metric("tokenInversions"));
    }
}
