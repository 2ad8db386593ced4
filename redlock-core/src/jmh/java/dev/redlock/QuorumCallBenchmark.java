package dev.redlock;

import dev.redlock.internal.Ticker;
import dev.redlock.spi.NodeTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
 * Quorum counting without the network: every node's reply is already there, so this measures what the library
 * adds per round (timers, vote bookkeeping, classification of the ACQUIRE reply, decision futures).
 * In package {@code dev.redlock} (the core's {@code src/jmh}) to reach the package-private machinery.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QuorumCallBenchmark {
    @Param({"3", "5", "9"})
    int nodes;

    private RedlockContext ctx;
    private ScheduledThreadPoolExecutor scheduler;
    private ExecutorService events;
    private final CompletableFuture<Object> grant = CompletableFuture.completedFuture(List.of(1L, 42L, 1000L));
    private final QuorumCall.Classifier classify = (node, reply, elapsed) -> {
        List<?> r = (List<?>) reply;
        return ((Number) r.get(0)).longValue() == 1 ? NodeVote.granted(node, ((Number) r.get(1)).longValue(), elapsed)
                : NodeVote.refused(node, "held", elapsed);
    };

    @Setup(Level.Trial)
    public void setup() {
        List<String> uris = new ArrayList<>();
        List<NodeClient> nodeClients = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            String uri = "redis://127.0.0.1:" + (1 + i);          // never connected: replies are faked
            uris.add(uri);
            nodeClients.add(NodeClient.over(i, uri, UNUSED));
        }
        RedlockConfig cfg = RedlockConfig.builder().nodes(uris).restartQuarantine(Duration.ZERO).build();
        scheduler = new ScheduledThreadPoolExecutor(1);
        scheduler.setRemoveOnCancelPolicy(true);
        events = Executors.newSingleThreadExecutor();
        ctx = new RedlockContext(cfg, nodeClients, scheduler, events, Ticker.SYSTEM, null);
    }

    @TearDown(Level.Trial)
    public void teardown() {
        scheduler.shutdownNow();
        events.shutdownNow();
    }

    /** A transport the benchmark never reaches (its sends return the faked reply). */
    private static final NodeTransport UNUSED = new NodeTransport() {
        @Override
        public CompletableFuture<Object> command(String... args) {
            throw new UnsupportedOperationException("replies are faked");
        }

        @Override
        public CompletableFuture<Void> subscribe(String channel, Consumer<String> listener) {
            throw new UnsupportedOperationException("replies are faked");
        }

        @Override
        public void unsubscribe(String channel, Consumer<String> listener) {
        }

        @Override
        public void close() {
        }
    };

    @Benchmark
    public boolean quorumOfGrants() {
        QuorumCall call = QuorumCall.start(ctx, RedlockListener.Operation.ACQUIRE, ctx.allNodes(), false, System.nanoTime(),
                n -> grant, classify, QuorumCall.LateGrants.IGNORE);
        return call.decision().join();
    }
}
