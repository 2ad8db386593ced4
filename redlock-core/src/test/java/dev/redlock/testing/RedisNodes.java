package dev.redlock.testing;

import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisNodesExtension;
import java.time.Duration;

/**
 * The testkit's {@link RedisNodesExtension} (N real redis-server processes per test class, no lock keys left after
 * each test) with the core tests' default config for them.
 *
 * <pre>{@code @RegisterExtension static final RedisNodes redis = new RedisNodes(5);}</pre>
 */
public final class RedisNodes extends RedisNodesExtension {
    public RedisNodes(int size) {
        super(size);
    }

    /** Config for these nodes, fresh-node friendly (amnesia guard off), fast retries. */
    public RedlockConfig.Builder config() {
        return RedlockConfig.builder()
                .nodes(uris())
                .restartQuarantine(Duration.ZERO)
                .nodeTimeout(Duration.ofMillis(500))
                .retryCount(3)
                .retryDelay(Duration.ofMillis(20))
                .retryJitter(Duration.ofMillis(10));
    }
}
