package dev.redlock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.PublicTypes;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The doctor's public surface is what docs/tuning.md and docs/doctor.md document; the builder's messages name the field and range. */
class DoctorPublicApiTest {

    @Test
    void onlyTheReportTypesArePublic() throws Exception {
        assertEquals(Set.of("ClockMeasure", "CommandCheck", "CommandCheck$Status", "Doctor", "Doctor$Builder",
                "DoctorCommand", "DoctorReport", "Finding", "Finding$Severity", "MarkerState", "MarkerState$State",
                "MembershipRecord", "NodeReport", "NodeReport$Reach", "NodeReport$Server", "Recommendation", "RoundTrips"),
                PublicTypes.in(Doctor.class, "dev.redlock.doctor"));
    }

    @Test
    void theBuilderNamesTheFieldAndTheRange() {
        IllegalArgumentException uri = assertThrows(IllegalArgumentException.class,
                () -> Doctor.builder().nodes("redis://a:1", "mongodb://b:2").build());
        assertTrue(uri.getMessage().startsWith("nodes[1]"), uri.getMessage());
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                () -> Doctor.builder().nodes("redis://a:1").duration(Duration.ofHours(2)).build());
        assertEquals("duration must be in [1s, 1h], got 7200 s", d.getMessage());
        IllegalArgumentException ttl = assertThrows(IllegalArgumentException.class,
                () -> Doctor.builder().nodes("redis://a:1").maxTtl(Duration.ZERO).build());
        assertEquals("maxTtl must be in (0, 24h], got 0.00 ms", ttl.getMessage());
        IllegalArgumentException prefix = assertThrows(IllegalArgumentException.class,
                () -> Doctor.builder().nodes("redis://a:1").keyPrefix("a b").build());
        assertTrue(prefix.getMessage().startsWith("keyPrefix"), prefix.getMessage());
    }
}
