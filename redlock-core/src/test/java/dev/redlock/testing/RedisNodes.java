package dev.redlock.testing;

import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisNodesExtension;
import dev.redlock.testkit.RedisProcess;
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

    /**
     * Drops every membership record ({@code m:*} fields of the marker) from {@code node}, as if the clients that wrote
     * them had been gone for long: for tests that then run a client with another node list on purpose (one node of
     * the set, to look at it alone).
     */
    public static void forgetMemberships(RedisProcess node) {
        String marker = PREFIX + "__node";
        if (!"hash".equals(node.command("TYPE", marker))) return;
        for (String field : node.command("HKEYS", marker).split("\n")) {
            if (field.startsWith("m:")) node.command("HDEL", marker, field);
        }
    }

    /** {@link #forgetMemberships(RedisProcess)} on every node of this set. */
    public void forgetMemberships() {
        cluster().nodes().forEach(RedisNodes::forgetMemberships);
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
