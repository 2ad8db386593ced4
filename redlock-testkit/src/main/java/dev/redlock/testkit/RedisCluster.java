package dev.redlock.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * N independent {@link RedisNode}s, started together and stopped together (by pid, also on failure).
 * Not thread-safe for lifecycle calls.
 */
public final class RedisCluster implements AutoCloseable {
    private final List<RedisNode> nodes;

    private RedisCluster(List<RedisNode> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts {@code n} nodes without persistence. */
    public static RedisCluster start(int n) {
        return new RedisCluster(RedisNode.startMany(n, false));
    }

    /** Starts {@code n} nodes, with AOF {@code appendfsync always} when {@code aof}. */
    public static RedisCluster start(int n, boolean aof) {
        return new RedisCluster(RedisNode.startMany(n, aof));
    }

    /** Starts {@code n} nodes of {@code binary} without persistence (e.g. {@link BundledServer#path()}). */
    public static RedisCluster start(int n, Path binary) {
        List<RedisNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) nodes.add(RedisNode.builder().binary(binary).start());
            return new RedisCluster(nodes);
        } catch (RuntimeException e) {
            nodes.forEach(RedisNode::close);
            throw e;
        }
    }

    public List<RedisNode> nodes() {
        return nodes;
    }

    public RedisNode node(int i) {
        return nodes.get(i);
    }

    public int size() {
        return nodes.size();
    }

    /** {@code redis://127.0.0.1:port} of every node, in order. */
    public List<String> uris() {
        List<String> out = new ArrayList<>();
        for (RedisNode n : nodes) out.add(n.uri());
        return out;
    }

    /** FLUSHALL on every running, unpaused node. */
    public void flushAll() {
        for (RedisNode n : nodes) {
            if (n.isRunning() && !n.isPaused()) n.command("FLUSHALL");
        }
    }

    /** Resumes paused nodes and restarts killed ones, so a test leaves the cluster as it found it. */
    public void heal() {
        for (RedisNode n : nodes) {
            if (n.isPaused()) n.resume();
            if (!n.isRunning()) n.restart();
        }
    }

    /**
     * Lock keys (those under {@code prefix}, except the library's own {@code __} bookkeeping keys) on every running,
     * unpaused node, as "port:key".
     */
    public List<String> lockKeys(String prefix) {
        List<String> out = new ArrayList<>();
        for (RedisNode n : nodes) {
            if (!n.isRunning() || n.isPaused()) continue;
            for (String k : n.keys(prefix + "*")) {
                if (!k.startsWith(prefix + "__")) out.add(n.port() + ":" + k);
            }
        }
        return out;
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (RedisNode n : nodes) {
            try {
                n.close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }
}
