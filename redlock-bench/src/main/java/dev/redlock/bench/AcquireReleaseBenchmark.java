package dev.redlock.bench;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisCluster;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole hot path against real local redis-server processes: acquire then release one free resource.
 * Run with {@code -prof gc} for the allocation per acquire+release (gc.alloc.rate.norm counts every thread,
 * so the Netty I/O threads' share is included).
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class AcquireReleaseBenchmark {
    @Param({"5"})
    int nodes;

    @Param({"true", "false"})
    boolean fencing;

    private RedisCluster cluster;
    private Redlock redlock;
    private final Duration ttl = Duration.ofSeconds(10);

    @Setup(Level.Trial)
    public void start() {
        cluster = RedisCluster.start(nodes);
        redlock = Redlock.create(RedlockConfig.builder().nodes(cluster.uris()).fencing(fencing).build());
        redlock.markNodesFresh();
    }

    @TearDown(Level.Trial)
    public void stop() {
        try {
            if (redlock != null) redlock.close();
        } finally {
            if (cluster != null) cluster.close();
        }
    }

    @Benchmark
    public long acquireRelease() {
        Lease lease = redlock.acquire("jmh", ttl);
        long t = fencing ? lease.fencingToken() : 0;
        lease.release();
        return t;
    }
}
