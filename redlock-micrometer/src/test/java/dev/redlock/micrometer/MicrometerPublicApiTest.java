package dev.redlock.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.micrometer} is a contract: adding a public type must be deliberate. */
class MicrometerPublicApiTest {

    @Test
    void onlyTheBinderTheObservationsAndTheirBuildersArePublic() throws Exception {
        assertEquals(Set.of("RedlockMetrics", "RedlockMetrics$Builder", "RedlockObservations", "RedlockObservations$Builder"),
                PublicTypes.in(RedlockMetrics.class, "dev.redlock.micrometer"));
    }
}
