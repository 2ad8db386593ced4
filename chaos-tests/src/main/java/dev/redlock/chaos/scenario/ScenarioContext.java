package dev.redlock.chaos.scenario;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.Nemesis;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.Resource;
import dev.redlock.chaos.workload.Workload;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.RedisProcess;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What a {@link ScenarioScript} works with: the cluster, the nemesis, the clients, the resource and the history of
 * one run, plus the seeded random source and helpers for forcing interleavings. Built by {@link ScenarioRunner}.
 */
public final class ScenarioContext {
    private final Settings settings;
    private final ChaosCluster cluster;
    private final Nemesis nemesis;
    private final History history;
    private final Resource resource;
    private final List<WorkloadClient> clients;
    private final String keyPrefix;
    private final Random random;
    private final List<Check> checks = new CopyOnWriteArrayList<>();
    /** Nodes failed over to another process (the clients' proxies point at it now). */
    private final Map<Integer, RedisProcess> failedOver = new ConcurrentHashMap<>();

    ScenarioContext(Settings settings, ChaosCluster cluster, Nemesis nemesis, History history, Resource resource,
                    List<WorkloadClient> clients, String keyPrefix) {
        this.settings = settings;
        this.cluster = cluster;
        this.nemesis = nemesis;
        this.history = history;
        this.resource = resource;
        this.clients = List.copyOf(clients);
        this.keyPrefix = keyPrefix;
        this.random = new Random(settings.seed());
    }

    public Settings settings() { return settings; }

    public ChaosCluster cluster() { return cluster; }

    public Nemesis nemesis() { return nemesis; }

    public History history() { return history; }

    public Resource resource() { return resource; }

    public List<WorkloadClient> clients() { return clients; }

    public WorkloadClient client(int i) { return clients.get(i); }

    public Duration ttl() { return settings.ttl(); }

    /** The scenario's seeded random source (use it for every choice so a seed replays the run). */
    public Random random() { return random; }

    /**
     * The process the clients reach as node {@code i}: the node itself, or the process it was
     * {@linkplain #failedOver failed over} to. The ground truth reads this one.
     */
    public RedisProcess servedBy(int i) {
        return failedOver.getOrDefault(i, cluster.node(i));
    }

    /** Records that node {@code i}'s proxies now lead to {@code to} (after {@code Nemesis.failover}). */
    public void failedOver(int i, RedisProcess to) {
        failedOver.put(i, to);
    }

    /** The protected lock's key on the nodes. */
    public String lockKey() {
        return keyPrefix + clients.get(0).lockName();
    }

    /** Records a scenario-specific assertion; all must pass for the scenario to pass. */
    public void check(String name, boolean passed, String detail) {
        checks.add(new Check(name, passed, detail == null ? "" : detail));
        history.note((passed ? "check ok: " : "check FAILED: ") + name + (detail == null ? "" : " (" + detail + ")"));
    }

    List<Check> checks() {
        return List.copyOf(checks);
    }

    /** The random contention loop on every client for {@code d}. */
    public void runWorkload(Duration d) {
        runWorkload(clients, d);
    }

    /** The random contention loop on some clients for {@code d}. */
    public void runWorkload(List<WorkloadClient> cs, Duration d) {
        Workload.run(cs, new Workload.Options(ttl(), d, Duration.ofMillis(3), Duration.ofMillis(3),
                Duration.ofMillis(15), Duration.ofMillis(10)), random.nextLong());
    }

    /** Tries to acquire (rounds 5 ms ± 3 ms apart) until it succeeds or {@code timeout} passes. */
    public Optional<Held> acquireWithin(WorkloadClient c, Duration timeout) {
        return c.acquire(ttl(), History.now() + timeout.toNanos(), new Random(random.nextLong()),
                Duration.ofMillis(5), Duration.ofMillis(3));
    }

    /** Runs {@code body} on its own thread. */
    public <T> CompletableFuture<T> async(String name, Supplier<T> body) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(body.get());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "scenario-" + name);
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** Waits for a future started with {@link #async}; rethrows its failure. */
    public static <T> T join(CompletableFuture<T> f, Duration timeout) {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("scenario step did not finish within " + timeout.toMillis() + "ms", e);
        }
    }

    /** Sleeps until {@code condition} holds or {@code max} passes; returns whether it holds. */
    public static boolean await(BooleanSupplier condition, Duration max) {
        long deadline = History.now() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (History.now() >= deadline) return false;
            Sleep.of(Duration.ofMillis(2));
        }
        return true;
    }

    /**
     * The value of the protected lock key on each node as the clients reach it ({@link #servedBy}; read directly, not
     * through a proxy); "" where absent.
     */
    public List<String> lockValues() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cluster.size(); i++) {
            RedisProcess n = servedBy(i);
            out.add(n.isRunning() && !n.isPaused() ? n.command("GET", lockKey()) : "?");
        }
        return out;
    }

    /** Successful acquires whose INVOKE came in [from, to] (harness nanos). */
    public long acquiresOkInvokedBetween(long from, long to) {
        long ok = 0;
        long[] invokedAt = new long[clients.size()];
        for (Event e : history.events()) {
            if (e.op() != Event.Op.ACQUIRE) continue;
            if (e.type() == Event.Type.INVOKE) invokedAt[e.client()] = e.nanos();
            else if (e.type() == Event.Type.OK) {
                long inv = invokedAt[e.client()];
                if (inv >= from && inv <= to) ok++;
            }
        }
        return ok;
    }

    /** Acquire rounds whose INVOKE came in [from, to]. */
    public long acquiresInvokedBetween(long from, long to) {
        return history.events(e -> e.op() == Event.Op.ACQUIRE && e.type() == Event.Type.INVOKE
                && e.nanos() >= from && e.nanos() <= to).size();
    }
}
