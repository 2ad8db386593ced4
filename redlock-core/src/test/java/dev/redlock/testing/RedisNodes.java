package dev.redlock.testing;

import static org.junit.jupiter.api.Assertions.fail;

import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisCluster;
import dev.redlock.testkit.RedisNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension: starts N real redis-server processes once per test class, heals and flushes them before each
 * test, and after each test asserts that no lock keys are left on any node (the invariant every test must keep);
 * stops every process by pid after the class, also on failure.
 *
 * <pre>{@code @RegisterExtension static final RedisNodes redis = new RedisNodes(5);}</pre>
 */
public final class RedisNodes implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    public static final String PREFIX = "redlock:";

    private final int size;
    private RedisCluster cluster;
    private boolean skipLeakCheck;

    public RedisNodes(int size) {
        this.size = size;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = RedisCluster.start(size);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (cluster != null) cluster.close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        cluster.heal();
        cluster.flushAll();
        skipLeakCheck = false;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        cluster.heal();
        if (skipLeakCheck || context.getExecutionException().isPresent()) return;
        List<String> left = awaitNoLockKeys();
        if (!left.isEmpty()) fail("lock keys left behind after the test: " + left);
    }

    /**
     * Waits (up to 5 s) until no node has lock keys and none appear for 300 ms (late commands may still be landing);
     * returns what is left.
     */
    public List<String> awaitNoLockKeys() {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long emptySince = -1;
        List<String> left = cluster.lockKeys(PREFIX);
        while (System.nanoTime() < deadline) {
            if (left.isEmpty()) {
                if (emptySince < 0) emptySince = System.nanoTime();
                if (System.nanoTime() - emptySince > Duration.ofMillis(300).toNanos()) return left;
            } else {
                emptySince = -1;
            }
            sleep(20);
            left = cluster.lockKeys(PREFIX);
        }
        return left;
    }

    /** For a test that deliberately leaves keys (it must say why). */
    public void allowLeftoverKeys() {
        skipLeakCheck = true;
    }

    public RedisCluster cluster() {
        return cluster;
    }

    public RedisNode node(int i) {
        return cluster.node(i);
    }

    public List<String> uris() {
        return cluster.uris();
    }

    /** Config for these nodes, fresh-node friendly (amnesia guard off), fast retries. */
    public RedlockConfig.Builder config() {
        return RedlockConfig.builder()
                .nodes(cluster.uris())
                .restartQuarantine(Duration.ZERO)
                .nodeTimeout(Duration.ofMillis(500))
                .retryCount(3)
                .retryDelay(Duration.ofMillis(20))
                .retryJitter(Duration.ofMillis(10));
    }

    /** Runs {@code action} with nodes {@code indexes} paused (SIGSTOP), resuming them however it ends. */
    public void whilePaused(Runnable action, int... indexes) {
        for (int i : indexes) cluster.node(i).pause();
        try {
            action.run();
        } finally {
            for (int i : indexes) cluster.node(i).resume();
        }
    }

    /** Lock keys on all nodes for a resource, as "port:key". */
    public List<String> lockKeys() {
        return cluster.lockKeys(PREFIX);
    }

    /** The owner value stored for a resource on node i, or "" when absent. */
    public String ownerOn(int i, String resource) {
        return cluster.node(i).command("GET", PREFIX + resource);
    }

    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
