package dev.redlock.bench;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.redisson.api.RScript;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/** The floor: one SET NX PX round trip to one node, by redis-benchmark (C, when installed) and by one Redisson client. */
final class Floor {
    private Floor() {}

    /** The redis-benchmark executable on the PATH, or null. */
    static String redisBenchmark() {
        return Executables.onPath("redis-benchmark");
    }

    /**
     * {@code redis-benchmark -c 1 -n N SET bench:__rand_int__ v NX PX 10000} on one node: p50/p99 of one round trip
     * from a C client with one connection. Empty map when redis-benchmark is not installed or fails.
     */
    static Map<String, Double> byRedisBenchmark(int port, int n) {
        Map<String, Double> out = new LinkedHashMap<>();
        String exe = redisBenchmark();
        if (exe == null) return out;
        try {
            Process p = new ProcessBuilder(exe, "-h", "127.0.0.1", "-p", Integer.toString(port), "-c", "1",
                    "-n", Integer.toString(n), "-r", "1000000", "--csv",
                    "SET", "floor:__rand_int__", "v", "NX", "PX", "10000").redirectErrorStream(true).start();
            String header = null;
            String row = null;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.startsWith("\"test\"")) header = line;
                    else if (header != null && line.startsWith("\"")) row = line;
                }
            }
            p.waitFor(60, TimeUnit.SECONDS);
            if (header == null || row == null) return out;
            String[] h = header.replace("\"", "").split(",");
            String[] v = row.replace("\"", "").split(",");
            for (int i = 1; i < Math.min(h.length, v.length); i++) {
                if (h[i].equals("p50_latency_ms")) out.put("acquire_p50_ms", Double.parseDouble(v[i]));
                if (h[i].equals("p99_latency_ms")) out.put("acquire_p99_ms", Double.parseDouble(v[i]));
                if (h[i].equals("rps")) out.put("ops_per_s", Double.parseDouble(v[i]));
            }
        } catch (Exception e) {
            System.err.println("redis-benchmark failed: " + e);
        }
        return out;
    }

    /**
     * A reference for a quorum round from Java: one Redisson client per node (one shared event loop), a trivial
     * script by EVALSHA sent from the caller's thread to every node at once, done when {@code quorum} replied; and
     * two such rounds back to back (the second to {@code quorum} nodes, started from the reply thread, as a
     * separate fencing phase would be). No lock logic: what a straightforward parallel Redisson client pays.
     */
    static Map<String, Double> redissonFanout(List<String> uris, int warmup, int n) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<RedissonClient> clients = new ArrayList<>();
        try {
            List<RScript> scripts = new ArrayList<>();
            String sha = null;
            for (String uri : uris) {
                Config c = new Config();
                c.setEventLoopGroup(group);
                c.setCodec(StringCodec.INSTANCE);
                c.setTcpNoDelay(true);
                c.useSingleServer().setAddress(uri).setConnectionMinimumIdleSize(1).setConnectionPoolSize(16)
                        .setRetryAttempts(0);
                RedissonClient rc = Redisson.create(c);
                clients.add(rc);
                RScript sc = rc.getScript(StringCodec.INSTANCE);
                sha = sc.scriptLoad("return 1");
                scripts.add(sc);
            }
            int quorum = uris.size() / 2 + 1;
            Latencies one = new Latencies(n);
            Latencies two = new Latencies(n);
            final String s = sha;
            for (int i = 0; i < warmup + n; i++) {
                long t0 = System.nanoTime();
                quorumRound(scripts, s, quorum, null).get(5, TimeUnit.SECONDS);
                long t1 = System.nanoTime();
                quorumRound(scripts, s, quorum, () -> quorumRound(scripts.subList(0, quorum), s, quorum, null))
                        .get(5, TimeUnit.SECONDS);
                long t2 = System.nanoTime();
                if (i >= warmup) {
                    one.add(t1 - t0);
                    two.add(t2 - t1);
                }
            }
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("one_round_p50_ms", one.percentileMs(50));
            out.put("two_rounds_p50_ms", two.percentileMs(50));
            return out;
        } finally {
            clients.forEach(c -> c.shutdown(0, 2, TimeUnit.SECONDS));
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
    }

    private static CompletableFuture<Void> quorumRound(List<RScript> scripts, String sha, int quorum,
                                                       Supplier<CompletableFuture<Void>> then) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicInteger replies = new AtomicInteger();
        for (RScript sc : scripts) {
            sc.evalShaAsync(RScript.Mode.READ_WRITE, sha, RScript.ReturnType.LONG, List.of("floor:k")).whenComplete((r, e) -> {
                if (replies.incrementAndGet() != quorum) return;
                if (then == null) done.complete(null);
                else then.get().whenComplete((x, e2) -> done.complete(null));
            });
        }
        return done;
    }

    /** The same round trip from Java: one Redisson client, {@code RBucket.setIfAbsent(v, ttl)} = SET NX PX. */
    static Map<String, Double> byRedisson(String uri, int warmup, int n) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        Config c = new Config();
        c.setEventLoopGroup(group);
        c.setCodec(StringCodec.INSTANCE);
        c.setTcpNoDelay(true);
        c.useSingleServer().setAddress(uri).setConnectionMinimumIdleSize(1).setConnectionPoolSize(16).setRetryAttempts(0);
        RedissonClient client = Redisson.create(c);
        try {
            Latencies lat = new Latencies(n);
            Duration ttl = Duration.ofSeconds(10);
            for (int i = 0; i < warmup + n; i++) {
                RBucket<String> b = client.getBucket("floor:r" + i, StringCodec.INSTANCE);
                long t0 = System.nanoTime();
                b.setIfAbsent("v", ttl);
                long dt = System.nanoTime() - t0;
                if (i >= warmup) lat.add(dt);
            }
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("acquire_p50_ms", lat.percentileMs(50));
            out.put("acquire_p99_ms", lat.percentileMs(99));
            out.put("acquire_p999_ms", lat.percentileMs(99.9));
            return out;
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
    }
}
