package dev.redlock.bench;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * node-redlock ({@code redlock} 5 + {@code ioredis} 5) as a lock system, run by the {@link NodeDriver}: one Redlock
 * over one ioredis client per node, ioredis' {@code commandTimeout} = the bench's node timeout, the library's
 * default drift (0.01) and retry delay/jitter (200 ms ± 100 ms, the same as redlock's). Every timed loop runs in
 * Node; the JVM only starts it and reads the samples. Not thread-safe: the driver answers one request at a time.
 */
final class NodeRedlock implements LockSystem {
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final NodeDriver driver;
    private final String name;
    private final List<String> uris;
    private final int nodeTimeoutMs;
    private final int retryCount;

    /** {@code retryCount} 0 = one round per acquire (W1, W3, W4, W6); W2 waits with a large one, as redlock does. */
    NodeRedlock(NodeDriver driver, String name, List<String> uris, int nodeTimeoutMs, int retryCount) {
        this.driver = driver;
        this.name = name;
        this.uris = List.copyOf(uris);
        this.nodeTimeoutMs = nodeTimeoutMs;
        this.retryCount = retryCount;
    }

    @Override
    public String name() {
        return name;
    }

    private String open() {
        String id = name + "-" + INSTANCES.incrementAndGet();
        Map<String, Object> req = new LinkedHashMap<>();
        req.put("instance", id);
        req.put("nodes", uris);
        req.put("nodeTimeoutMs", nodeTimeoutMs);
        req.put("retryCount", retryCount);
        req.put("retryDelayMs", 200);
        req.put("retryJitterMs", 100);
        call("open", req);
        return id;
    }

    private void closeInstance(String id) {
        call("close", Map.of("instance", id));
    }

    private JsonObject call(String op, Map<String, ?> req) {
        try {
            return driver.call(op, req);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public LockClient newClient() {
        String id = open();
        return new LockClient() {
            @Override
            public Held acquire(String resource, long ttlMs, long waitMs) {
                JsonObject r = call("acquire", Map.of("instance", id, "resource", resource, "ttlMs", ttlMs));
                return r.get("handle").isJsonNull() ? null : new Held(r.get("handle").getAsLong(), -1);
            }

            @Override
            public void release(Held held) {
                call("release", Map.of("handle", held.handle()));
            }

            @Override
            public int uncontended(String resource, long ttlMs, int n, Latencies acquires, Latencies releases) {
                JsonObject r = call("uncontended", Map.of("instance", id, "resource", resource, "ttlMs", ttlMs, "n", n));
                if (acquires != null) {
                    NodeDriver.addSamples(r.getAsJsonArray("acquireNs"), acquires);
                    NodeDriver.addSamples(r.getAsJsonArray("releaseNs"), releases);
                }
                return r.get("failures").getAsInt();
            }

            @Override
            public void close() {
                closeInstance(id);
            }
        };
    }

    @Override
    public Contenders contenders(int clients, String resource, long ttlMs) {
        List<String> ids = new ArrayList<>();
        for (int c = 0; c < clients; c++) ids.add(open());
        return new Contenders() {
            @Override
            public Batch run(long millis) {
                JsonObject r = call("contended", Map.of("instances", ids, "resource", resource, "ttlMs", ttlMs,
                        "ms", millis));
                long[] perClient = new long[ids.size()];
                for (int i = 0; i < perClient.length; i++) perClient[i] = r.getAsJsonArray("perClient").get(i).getAsLong();
                return new Batch(perClient, r.get("overlaps").getAsLong(), 0, r.get("errors").getAsLong(),
                        r.get("elapsedNs").getAsLong());
            }

            @Override
            public void close() {
                ids.forEach(NodeRedlock.this::closeInstance);
            }
        };
    }

    @Override
    public Callers callers(int callers, String prefix, long ttlMs) {
        String id = open();
        return new Callers() {
            @Override
            public Batch run(long millis) {
                JsonObject r = call("concurrent", Map.of("instance", id, "callers", callers, "prefix", prefix,
                        "ttlMs", ttlMs, "ms", millis));
                Latencies pairs = new Latencies(1024);
                Latencies acquires = new Latencies(1024);
                NodeDriver.addSamples(r.getAsJsonArray("pairNs"), pairs);
                NodeDriver.addSamples(r.getAsJsonArray("acquireNs"), acquires);
                return new Batch(pairs, acquires, r.get("failures").getAsLong(), r.get("elapsedNs").getAsLong());
            }

            @Override
            public void close() {
                closeInstance(id);
            }
        };
    }

    /** The Node floor: SET NX PX round trips from one ioredis client to one node. */
    static Map<String, Double> floor(NodeDriver driver, String uri, int warmup, int n) throws IOException {
        JsonObject r = driver.call("floor", Map.of("node", uri, "warmup", warmup, "n", n));
        Latencies lat = new Latencies(n);
        NodeDriver.addSamples(r.getAsJsonArray("setNs"), lat);
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("acquire_p50_ms", lat.percentileMs(50));
        out.put("acquire_p99_ms", lat.percentileMs(99));
        return out;
    }
}
