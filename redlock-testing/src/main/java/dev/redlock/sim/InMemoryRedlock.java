package dev.redlock.sim;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.internal.Seams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A real {@link Redlock} over simulated nodes, for the unit tests of code that uses the library: no
 * {@code redis-server}, no Docker. The nodes run the library's own Lua scripts ({@link SimNode}); the client's
 * clock and timers run on the simulation's virtual time, which a background thread keeps at the pace of real time
 * and {@link #advance(Duration)} moves forward at once (keys expire, leases' validity runs out, watchdogs and
 * retries fire, as if that much time had passed). Faults are method calls: {@link #kill}, {@link #restart},
 * {@link #powerLoss}, {@link #pause}, {@link #partition}, {@link #heal}, {@link #clockOffset}. Call everything
 * from the test's own threads; use the {@link Redlock} as in production (its blocking calls are fine there).
 *
 * <p>What it guarantees: the client is the library's real code and the scripts are its real scripts; it does
 * <b>not</b> prove anything about real servers (see the module's README for what the node model leaves out). The
 * preflight checks run as configured. The nodes start marked fresh (as after {@link Redlock#markNodesFresh()}), so
 * the amnesia guard does not hold the first acquisitions back; a node restarted later is quarantined as usual.
 * Loss listeners run on the simulation's thread: they must not block. Thread-safe.
 */
public final class InMemoryRedlock implements AutoCloseable {
    private static final long EPOCH_US = 1_748_736_000_000_000L;

    private final SimScheduler time;
    private final SimNetwork net;
    private final SimClient client;
    private final List<SimNode> nodes = new ArrayList<>();
    private final AtomicLong jumpedNanos = new AtomicLong();
    private final Thread driver;
    private volatile boolean stopped;
    private final Redlock redlock;

    private InMemoryRedlock(Builder b) {
        time = new SimScheduler(b.seed);
        net = new SimNetwork(time);
        net.defaultDelay(LinkDelay.fixed(Duration.ofNanos(100_000)));
        client = net.client("app");
        List<SimTransport> transports = new ArrayList<>();
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < b.nodes; i++) {
            SimNode n = net.attach(SimNode.builder(time, "node" + i).epochMicros(EPOCH_US).persistence(b.persistence).build());
            nodes.add(n);
            transports.add(client.transport(n));
            uris.add("redis://node" + i + ":6379");
        }
        long realStart = System.nanoTime();
        driver = new Thread(() -> {
            while (!stopped) {
                time.runUntil(System.nanoTime() - realStart + jumpedNanos.get());
                LockSupport.parkNanos(100_000);
            }
        }, "in-memory-redlock");
        driver.setDaemon(true);
        driver.start();
        RedlockConfig.Builder config = RedlockConfig.builder().nodes(uris);
        b.configure.accept(config);
        Seams seams = Seams.builder().ticker(time::nanoTime).wallMicros(() -> EPOCH_US + time.nanoTime() / 1000)
                .scheduler(time).events(time).random(new Random(b.seed)).build();
        try {
            redlock = RedlockInternals.create(config.build(), transports, seams);
            redlock.markNodesFresh();
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** A builder: 3 nodes, no persistence, seed 1, the library's default settings otherwise. */
    public static Builder builder() {
        return new Builder();
    }

    /** The client: the library's real code over the simulated nodes. */
    public Redlock redlock() {
        return redlock;
    }

    /** How many nodes. */
    public int nodes() {
        return nodes.size();
    }

    /** Virtual time since the start. */
    public Duration elapsed() {
        return Duration.ofNanos(time.nanoTime());
    }

    /** Moves time forward by {@code d} at once, running every timer that falls due on the way; returns after it. */
    public void advance(Duration d) {
        if (d.isNegative()) throw new IllegalArgumentException("d must be >= 0, got " + d);
        long target = onLoop(() -> time.nanoTime()) + d.toNanos();
        jumpedNanos.addAndGet(d.toNanos());
        while (time.nanoTime() < target && !stopped) LockSupport.parkNanos(100_000);
    }

    /** Kills node {@code i}'s process: connections drop, memory is lost (what its persistence kept survives). */
    public void kill(int i) {
        fault(i, SimNode::kill);
    }

    /** Node {@code i} loses power: as {@link #kill}, and what was not fsynced is lost too. */
    public void powerLoss(int i) {
        fault(i, SimNode::powerLoss);
    }

    /** Restarts node {@code i} (a new process: its memory is what its persistence kept; the amnesia guard applies). */
    public void restart(int i) {
        fault(i, SimNode::restart);
    }

    /** Stops node {@code i}'s process (SIGSTOP): requests queue until {@link #resume}. */
    public void pause(int i) {
        fault(i, SimNode::pause);
    }

    public void resume(int i) {
        fault(i, SimNode::resume);
    }

    /** Cuts the client from node {@code i} both ways: what is sent is held until {@link #heal}. */
    public void partition(int i) {
        fault(i, n -> net.partition(client, n));
    }

    public void heal(int i) {
        fault(i, n -> net.heal(client, n));
    }

    /** Steps node {@code i}'s clock to {@code offset} from true time. */
    public void clockOffset(int i, Duration offset) {
        fault(i, n -> n.clockOffset(offset));
    }

    /** Runs {@code read} on the simulation's thread (where node state may be read: {@link SimNode#keys()}, ...). */
    public <T> T onNode(int i, java.util.function.Function<SimNode, T> read) {
        SimNode n = nodes.get(Objects.checkIndex(i, nodes.size()));
        return onLoop(() -> read.apply(n));
    }

    private void fault(int i, Consumer<SimNode> fault) {
        onNode(i, n -> {
            fault.accept(n);
            return null;
        });
    }

    private <T> T onLoop(Supplier<T> task) {
        CompletableFuture<T> f = new CompletableFuture<>();
        time.execute(() -> {
            try {
                f.complete(task.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the simulation did not run the task within 30 s (closed?)", e);
        }
    }

    /** Closes the client (releasing what it holds) and stops the simulation. */
    @Override
    public void close() {
        try {
            redlock.close();
        } finally {
            stop();
        }
    }

    private void stop() {
        stopped = true;
        try {
            driver.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        time.shutdownNow();
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private int nodes = 3;
        private long seed = 1;
        private Persistence persistence = Persistence.NONE;
        private Consumer<RedlockConfig.Builder> configure = c -> { };

        private Builder() {}

        /** How many nodes, 1 to 9 (default 3). */
        public Builder nodes(int nodes) {
            if (nodes < 1 || nodes > 9) throw new IllegalArgumentException("nodes must be in 1..9, got " + nodes);
            this.nodes = nodes;
            return this;
        }

        /** The seed of the owner values, jitter and network (default 1). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Every node's persistence (default {@link Persistence#NONE}). */
        public Builder persistence(Persistence persistence) {
            this.persistence = Objects.requireNonNull(persistence, "persistence");
            return this;
        }

        /** Adjusts the client's configuration (its node list is set already: one URI per simulated node). */
        public Builder configure(Consumer<RedlockConfig.Builder> configure) {
            this.configure = Objects.requireNonNull(configure, "configure");
            return this;
        }

        public InMemoryRedlock build() {
            return new InMemoryRedlock(this);
        }
    }
}
