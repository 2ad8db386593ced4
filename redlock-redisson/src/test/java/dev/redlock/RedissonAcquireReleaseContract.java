package dev.redlock;

import dev.redlock.redisson.RedissonRedlock;
import dev.redlock.redisson.TestClients;
import org.junit.jupiter.api.AfterEach;

/** The core's acquire/release contract over Redisson clients (the adapter's transport); subclasses pick N. */
abstract class RedissonAcquireReleaseContract extends AcquireReleaseContract {
    private final TestClients clients = new TestClients();

    @Override
    Redlock create(RedlockConfig config) {
        return RedissonRedlock.create(config, clients.connect(redis().uris()));
    }

    @AfterEach
    void closeClients() {
        clients.close();
    }
}
