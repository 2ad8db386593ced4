package com.example.locks;

import dev.redlock.chaos.junit.ChaosSuite;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * What a user's build adds to run the chaos suite with the settings it deploys (the doctor's --write file): three
 * scenarios that take the tuned settings (a client stall, where only fencing saves the data; a stale release; a
 * failover to a lagging replica with the amnesia guard). Embedded nodes here, running the server line this
 * application deploys (Redis 7.0: the bundled 7.0.15; -Dredlock.chaos.server=/path/to/redis-server names the exact
 * binary); in CI, -Dredlock.chaos.nodes and -Dredlock.chaos.toxiproxy point the same test at
 * docker-compose.redlock.yml (docs/ci/).
 */
class RedlockChaosIT {
    @TestFactory
    Stream<DynamicTest> chaosSuiteWithOurSettings() {
        return ChaosSuite.builder()
                .scenarios("7", "12", "d3")
                .server("embedded-7.0")
                .config(Path.of("src/test/resources/redlock.properties"))
                .tests();
    }
}
