package dev.redlock.redisson;

import dev.redlock.testing.RedisNodes;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedissonAcquireReleaseN3IT extends RedissonAcquireReleaseContract {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    @Override
    protected RedisNodes redis() {
        return REDIS;
    }
}
