package dev.redlock.redisson;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The adapter's public surface: two factories, nothing else. */
class RedissonPublicApiTest {

    @Test
    void onlyTheFactoriesArePublic() throws Exception {
        assertEquals(Set.of("RedissonFencedStores", "RedissonRedlock"),
                PublicTypes.in(RedissonRedlock.class, "dev.redlock.redisson"));
    }
}
