package dev.redlock;

import dev.redlock.redisson.RedissonRedlock;
import dev.redlock.redisson.TestClients;
import dev.redlock.testing.RedisNodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The core's acquire/release contract over Redisson clients (the adapter's transport), N=3. */
class RedissonAcquireReleaseN3IT extends AcquireReleaseContract {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);
    private final TestClients clients = new TestClients();

    @Override
    RedisNodes redis() {
        return REDIS;
    }

    @Override
    Redlock create(RedlockConfig config) {
        return RedissonRedlock.create(config, clients.connect(REDIS.uris()));
    }

    @AfterEach
    void closeClients() {
        clients.close();
    }
}
