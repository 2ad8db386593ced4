package dev.redlock.doctor;

import dev.redlock.RedlockConfig;
import dev.redlock.internal.Endpoints;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Examines Redis nodes the way the library uses them and recommends settings: {@link #examine()} connects to every
 * node with the library's own client (same URI, TLS, ACL semantics as a {@code Redlock}), reads its settings,
 * probes whether its ACL user may run every command the library sends, reads the library's marker, then samples
 * {@code TIME} round trips for {@link #duration()} (all nodes at once, a probe every {@link #interval()}) and returns a
 * {@link DoctorReport}. Built by {@link #builder()}; immutable and thread-safe.
 *
 * <p>What it does not do: it writes nothing on the nodes (every probe is harmless, see {@link CommandCheck}), it
 * measures from this host only (run it where the clients run), and its recommendations are a starting point from
 * fixed rules: verify them under faults with the chaos suite. Tested in {@code DoctorIT} (chaos-tests).
 */
public final class Doctor {
    private final RedlockConfig nodes;
    private final List<String> rawNodes;
    private final Duration duration;
    private final Duration maxTtl;
    private final Duration interval;
    private final Duration probeTimeout;

    private Doctor(Builder b, RedlockConfig nodes) {
        this.nodes = nodes;
        this.rawNodes = List.copyOf(b.nodes);
        this.duration = b.duration;
        this.maxTtl = b.maxTtl;
        this.interval = b.interval;
        this.probeTimeout = b.probeTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The nodes, passwords replaced by {@code ***}. */
    public List<String> nodes() {
        return nodes.nodes();
    }

    /** How long round trips and clocks are sampled. */
    public Duration duration() {
        return duration;
    }

    /** The longest lease TTL the user needs; {@code restartQuarantine} is recommended at least this long. */
    public Duration maxTtl() {
        return maxTtl;
    }

    /** The library's key prefix on these nodes (where the marker is, and the probes' keys). */
    public String keyPrefix() {
        return nodes.keyPrefix();
    }

    /** Time between two probes to one node. */
    public Duration interval() {
        return interval;
    }

    /** A probe unanswered this long counts as a timeout. */
    public Duration probeTimeout() {
        return probeTimeout;
    }

    /** {@link #examine(Consumer)} without progress lines. */
    public DoctorReport examine() {
        return examine(line -> { });
    }

    /**
     * Examines the nodes; takes about {@link #duration()} plus the connect timeout. Never throws for a node's
     * failure: an unreachable node, a refused login or a denied command is in the report.
     *
     * @param progress receives a line about every half second while sampling (from this thread)
     */
    @SuppressWarnings("deprecation")   // NioEventLoopGroup: deprecated in Netty 4.2, the one NIO group in both lines
    public DoctorReport examine(Consumer<String> progress) {
        Objects.requireNonNull(progress, "progress");
        Instant startedAt = Instant.now();
        int n = rawNodes.size();
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("redlock-doctor-io", true));
        ExecutorService workers = Executors.newFixedThreadPool(n, new DefaultThreadFactory("redlock-doctor", true));
        List<NodeSession> sessions = new ArrayList<>();
        try {
            Duration wait = Duration.ZERO;
            for (int i = 0; i < n; i++) {
                var endpoint = Endpoints.of(nodes, i);
                wait = endpoint.connectTimeout().plus(endpoint.replyWindow()).plusMillis(500);
                sessions.add(new NodeSession(endpoint, group.next(), probeTimeout.plusSeconds(1)));
            }
            Duration connectWait = wait;
            progress.accept("connecting to " + n + " node(s)");
            runAll(workers, sessions, s -> s.connect(connectWait));
            List<NodeSession> reachable = sessions.stream().filter(s -> s.reach == NodeReport.Reach.REACHABLE).toList();
            progress.accept("reading settings and probing permissions on " + reachable.size() + " node(s)");
            runAll(workers, reachable, s -> s.readFacts(nodes.keyPrefix()));
            if (!reachable.isEmpty()) sample(workers, reachable, progress);
            return DoctorReport.assemble(sessions, rawNodes, nodes.keyPrefix(), duration, interval, maxTtl, startedAt);
        } finally {
            workers.shutdownNow();
            for (NodeSession s : sessions) s.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private void sample(ExecutorService workers, List<NodeSession> sessions, Consumer<String> progress) {
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Future<?>> running = new ArrayList<>();
        for (NodeSession s : sessions) running.add(workers.submit(() -> s.sample(end, interval, probeTimeout)));
        long hardStop = end + probeTimeout.toNanos() + TimeUnit.SECONDS.toNanos(5);
        while (running.stream().anyMatch(f -> !f.isDone()) && System.nanoTime() < hardStop) {
            long probes = sessions.stream().mapToLong(s -> s.probes.get()).sum();
            long timeouts = sessions.stream().mapToLong(s -> s.timeouts.get()).sum();
            progress.accept(String.format(Locale.ROOT, "sampling %.1f / %.0f s: %d node(s), %d probes, %d timeouts",
                    Math.min(duration.toNanos(), System.nanoTime() - start) / 1e9, duration.toNanos() / 1e9,
                    sessions.size(), probes, timeouts));
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Future<?> f : running) f.cancel(true);
    }

    private static void runAll(ExecutorService workers, List<NodeSession> sessions, Consumer<NodeSession> step) {
        List<Future<?>> all = new ArrayList<>();
        for (NodeSession s : sessions) all.add(workers.submit(() -> step.accept(s)));
        for (Future<?> f : all) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                throw new IllegalStateException("doctor step failed: " + e.getCause(), e.getCause());
            }
        }
    }

    @Override
    public String toString() {
        return "Doctor[nodes=" + nodes() + ", duration=" + duration + ", maxTtl=" + maxTtl + "]";
    }

    /** Mutable builder; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private List<String> nodes = List.of();
        private Duration duration = Duration.ofSeconds(10);
        private Duration maxTtl = Duration.ofSeconds(30);
        private String keyPrefix = "redlock:";
        private Duration interval = Duration.ofMillis(5);
        private Duration probeTimeout = Duration.ofSeconds(1);

        private Builder() {}

        /** The nodes, as in {@code redlock.nodes}: {@code redis://[user:password@]host[:port][/db]} or {@code rediss://}. */
        public Builder nodes(String... uris) {
            return nodes(List.of(uris));
        }

        public Builder nodes(List<String> uris) {
            this.nodes = List.copyOf(uris);
            return this;
        }

        /** Sampling window; default 10 s, allowed [1 s, 1 h]. Longer windows bound the clock rate tighter. */
        public Builder duration(Duration d) {
            this.duration = d;
            return this;
        }

        /** The longest lease TTL you need; default 30 s, allowed (0, 24 h]. */
        public Builder maxTtl(Duration d) {
            this.maxTtl = d;
            return this;
        }

        /** The key prefix your clients use; default {@code redlock:}. */
        public Builder keyPrefix(String prefix) {
            this.keyPrefix = prefix;
            return this;
        }

        /** Time between two probes to one node; default 5 ms, allowed [1 ms, 1 s]. */
        public Builder interval(Duration d) {
            this.interval = d;
            return this;
        }

        /** A probe unanswered this long counts as a timeout; default 1 s, allowed [10 ms, 60 s]. */
        public Builder probeTimeout(Duration d) {
            this.probeTimeout = d;
            return this;
        }

        /**
         * Validates and returns an immutable doctor.
         *
         * @throws IllegalArgumentException naming the field, its value and the allowed range (a bad node URI:
         *                                  {@code nodes[i]}, as {@code RedlockConfig} says it)
         */
        public Doctor build() {
            check("duration", duration, Duration.ofSeconds(1), Duration.ofHours(1), "[1s, 1h]");
            if (maxTtl == null || maxTtl.isNegative() || maxTtl.isZero() || maxTtl.compareTo(Duration.ofHours(24)) > 0) {
                throw new IllegalArgumentException("maxTtl must be in (0, 24h], got " + human(maxTtl));
            }
            check("interval", interval, Duration.ofMillis(1), Duration.ofSeconds(1), "[1ms, 1s]");
            check("probeTimeout", probeTimeout, Duration.ofMillis(10), Duration.ofSeconds(60), "[10ms, 60s]");
            RedlockConfig cfg = RedlockConfig.builder().nodes(nodes).keyPrefix(keyPrefix).build();
            return new Doctor(this, cfg);
        }

        private static String human(Duration d) {
            return d == null ? "null" : Recommender.ms(d);
        }

        private static void check(String field, Duration d, Duration min, Duration max, String range) {
            if (d == null || d.compareTo(min) < 0 || d.compareTo(max) > 0) {
                throw new IllegalArgumentException(field + " must be in " + range + ", got " + human(d));
            }
        }
    }
}
