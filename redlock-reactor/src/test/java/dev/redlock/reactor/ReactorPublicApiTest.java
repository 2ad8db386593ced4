package dev.redlock.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.time.Duration;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The public surface of {@code dev.redlock.reactor} is a contract: one type, three methods. */
class ReactorPublicApiTest {

    @Test
    void oneTypeIsPublic() throws Exception {
        assertEquals(Set.of("ReactiveRedlock"), PublicTypes.in(ReactiveRedlock.class, "dev.redlock.reactor"));
        assertEquals(ReactiveRedlock.class, ReactiveRedlock.class.getMethod("of", dev.redlock.Redlock.class).getReturnType());
        assertEquals(Mono.class, ReactiveRedlock.class.getMethod("acquire", String.class, Duration.class).getReturnType());
        assertEquals(Flux.class, ReactiveRedlock.class.getMethod("withLock", String.class, Duration.class, Function.class)
                .getReturnType());
    }
}
