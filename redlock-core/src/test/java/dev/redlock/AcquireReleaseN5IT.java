package dev.redlock;

import dev.redlock.testing.AcquireReleaseContract;
import dev.redlock.testing.RedisNodes;
import org.junit.jupiter.api.extension.RegisterExtension;

class AcquireReleaseN5IT extends AcquireReleaseContract {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    @Override
    protected RedisNodes redis() {
        return REDIS;
    }
}
