package dev.redlock.examples.support;

import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisCluster;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * The Redis nodes an example runs on: by default real {@code redis-server} processes started here (and stopped by
 * {@link #close()}), or the nodes named by {@code --nodes redis://h1:p1,redis://h2:p2,...}.
 *
 * <p>Flags every example understands:
 * <ul>
 *   <li>{@code --nodes <uri,uri,...>} (or {@code --nodes=...}): use these nodes instead of starting embedded ones.</li>
 *   <li>{@code --mark-fresh}: on {@code --nodes}, mark them as brand-new for the amnesia guard
 *       ({@code Redlock.markNodesFresh()}); only for nodes that were just deployed. Embedded nodes are always fresh.</li>
 * </ul>
 * Fault injection (pausing nodes) is possible only on embedded nodes: see {@link #cluster()}.
 */
public final class ExampleNodes implements AutoCloseable {
    private final List<String> uris;
    private final RedisCluster cluster;
    private final boolean markFresh;
    private final boolean owned;

    private ExampleNodes(List<String> uris, RedisCluster cluster, boolean markFresh, boolean owned) {
        this.uris = List.copyOf(uris);
        this.cluster = cluster;
        this.markFresh = markFresh;
        this.owned = owned;
    }

    /**
     * Parses the flags above; without {@code --nodes}, starts {@code embeddedCount} local redis-server processes.
     *
     * @throws IllegalArgumentException on an unknown flag or a missing value, with the usage in the message
     */
    public static ExampleNodes fromArgs(String[] args, int embeddedCount) {
        List<String> nodes = null;
        boolean markFresh = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--nodes")) {
                if (i + 1 >= args.length) throw usage("--nodes needs a value");
                nodes = split(args[++i]);
            } else if (a.startsWith("--nodes=")) {
                nodes = split(a.substring("--nodes=".length()));
            } else if (a.equals("--mark-fresh")) {
                markFresh = true;
            } else {
                throw usage("unknown argument '" + a + "'");
            }
        }
        if (nodes == null) return embedded(embeddedCount);
        if (nodes.isEmpty()) throw usage("--nodes lists no URI");
        return new ExampleNodes(nodes, null, markFresh, false);
    }

    /** Starts {@code n} local redis-server processes (no persistence, loopback, free ports). */
    public static ExampleNodes embedded(int n) {
        System.out.println("starting " + n + " redis-server process(es): " + RedisBinary.path() + " (" + RedisBinary.origin() + ")");
        RedisCluster c = RedisCluster.start(n);
        return new ExampleNodes(c.uris(), c, true, true);
    }

    /** Wraps nodes started elsewhere (a test's own {@link RedisCluster}); {@link #close()} leaves them running. */
    public static ExampleNodes of(RedisCluster cluster) {
        return new ExampleNodes(cluster.uris(), cluster, true, false);
    }

    public List<String> uris() {
        return uris;
    }

    /** The embedded nodes, for fault injection; empty when running on {@code --nodes}. */
    public Optional<RedisCluster> cluster() {
        return Optional.ofNullable(cluster);
    }

    /** Whether {@code Redlock.markNodesFresh()} should be called: embedded nodes, or {@code --mark-fresh}. */
    public boolean markFresh() {
        return markFresh;
    }

    /** A small single-node Redisson client with {@link StringCodec}; the caller shuts it down. */
    public static RedissonClient redisson(String uri) {
        Config c = new Config();
        c.setCodec(StringCodec.INSTANCE);
        c.useSingleServer().setAddress(uri)
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(4)
                .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
        return Redisson.create(c);
    }

    /** Stops the embedded nodes this instance started; nothing for {@code --nodes} or {@link #of}. */
    @Override
    public void close() {
        if (cluster != null && owned) cluster.close();
    }

    private static List<String> split(String csv) {
        List<String> out = new ArrayList<>();
        for (String s : Arrays.asList(csv.split(","))) if (!s.isBlank()) out.add(s.trim());
        return out;
    }

    private static IllegalArgumentException usage(String problem) {
        return new IllegalArgumentException(problem + "; usage: [--nodes redis://host:port,redis://host:port,...] [--mark-fresh]");
    }
}
