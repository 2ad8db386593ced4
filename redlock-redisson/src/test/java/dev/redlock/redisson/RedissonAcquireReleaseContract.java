package dev.redlock.redisson;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testing.AcquireReleaseContract;
import org.junit.jupiter.api.AfterEach;

/** The core's acquire/release contract over Redisson clients (the adapter's transport); subclasses pick N. */
abstract class RedissonAcquireReleaseContract extends AcquireReleaseContract {
    private final TestClients clients = new TestClients();

    @Override
    protected Redlock create(RedlockConfig config) {
        return RedissonRedlock.create(config, clients.connect(redis().uris()));
    }

    @AfterEach
    void closeClients() {
        clients.close();
    }
}
