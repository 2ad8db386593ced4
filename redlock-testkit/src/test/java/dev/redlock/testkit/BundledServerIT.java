package dev.redlock.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each bundled binary starts and is the Redis it says it is. */
class BundledServerIT {

    @ParameterizedTest
    @EnumSource(BundledServer.class)
    void startsAndReportsItsVersion(BundledServer server) {
        try (RedisNode node = RedisNode.builder().binary(server.path()).start()) {
            assertEquals(server.version(), node.info("server", "redis_version"));
            assertEquals("PONG", node.command("PING"));
        }
    }
}
