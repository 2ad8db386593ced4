package dev.redlock.testkit;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension: starts N real redis-server processes once per test class, heals (resumes, restarts) and
 * flushes them before each test, and after each test asserts that no lock keys are left on any node (the invariant
 * every test must keep: keys under the lock prefix, the library's {@code __} bookkeeping keys aside); stops every
 * process by pid after the class, also on failure. A test that fails already is not checked again; a test that
 * leaves keys on purpose says so with {@link #allowLeftoverKeys()}.
 *
 * <pre>{@code @RegisterExtension static final RedisNodesExtension REDIS = new RedisNodesExtension(5);}</pre>
 */
public class RedisNodesExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    /** The library's default key prefix: lock keys are {@code redlock:<resource>}. */
    public static final String PREFIX = "redlock:";

    private final int size;
    private final String prefix;
    private RedisCluster cluster;
    private volatile boolean skipLeakCheck;

    /** {@code size} nodes, lock keys under {@link #PREFIX}. */
    public RedisNodesExtension(int size) {
        this(size, PREFIX);
    }

    /** {@code size} nodes, lock keys under {@code prefix}. */
    public RedisNodesExtension(int size, String prefix) {
        this.size = size;
        this.prefix = prefix;
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
        if (!left.isEmpty()) throw new AssertionError("lock keys left behind after the test: " + left);
    }

    /**
     * Waits (up to 5 s) until no node has lock keys and none appear for 300 ms (late commands may still be landing);
     * returns what is left.
     */
    public List<String> awaitNoLockKeys() {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long emptySince = -1;
        List<String> left = lockKeys();
        while (System.nanoTime() < deadline) {
            if (left.isEmpty()) {
                if (emptySince < 0) emptySince = System.nanoTime();
                if (System.nanoTime() - emptySince > Duration.ofMillis(300).toNanos()) return left;
            } else {
                emptySince = -1;
            }
            Sleep.millis(20);
            left = lockKeys();
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

    /** {@code redis://127.0.0.1:port} of every node, in order. */
    public List<String> uris() {
        return cluster.uris();
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

    /** Lock keys on every running, unpaused node, as "port:key". */
    public List<String> lockKeys() {
        return cluster.lockKeys(prefix);
    }

    /** The value stored for {@code resource}'s lock key on node i (its owner), or "" when absent. */
    public String ownerOn(int i, String resource) {
        return cluster.node(i).command("GET", prefix + resource);
    }
}
