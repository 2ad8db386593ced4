package dev.redlock;

import dev.redlock.testing.RedisNodes;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedissonAcquireReleaseN5IT extends RedissonAcquireReleaseContract {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    @Override
    RedisNodes redis() {
        return REDIS;
    }
}
