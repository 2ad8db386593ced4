package dev.redlock.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public surface of {@code dev.redlock.fencing} is a contract: adding a public type must be deliberate. */
class FencingPublicApiTest {

    @Test
    void onlyTheseTypesArePublic() throws Exception {
        assertEquals(Set.of("FencedRedisStore", "FencedTable", "FencedTable$Builder", "FencedValue",
                "FencedWriteResult", "FencedWriteResult$Status", "StaleTokenException"), PublicTypes.in(FencedTable.class, "dev.redlock.fencing"));
    }
}
