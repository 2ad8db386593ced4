package dev.redlock.chaos.scenario;

import dev.redlock.RedlockConfig;
import dev.redlock.internal.ConfigOption;
import dev.redlock.internal.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The knobs of one scenario run, built by {@link #builder()} (or {@link #toBuilder()} for a changed copy) and
 * validated as a whole in {@link Builder#build()}: every value is in a range the harness can run with (the ranges
 * {@code RedlockConfig} enforces for the clients' config, and those the runner relies on), and the message names the
 * field, the value and the allowed range. Nothing is clamped.
 *
 * <p>Two fields are derived at {@code build()} unless set explicitly, so the result never depends on the order of the
 * builder calls: the quorum is N/2+1, and the restart quarantine (the amnesia guard) is 2 x TTL, {@link Duration#ZERO}
 * turning the guard off. A copy made with {@link #toBuilder()} keeps a derived field derived (a new TTL gives a new
 * quarantine) and an explicit one explicit.
 *
 * <p>What it does not promise: that a scenario's script makes its point with these values (a scenario says which
 * values its claim depends on in {@link Needs#fixed()}). Immutable and thread-safe; the builder is neither.
 */
public final class Settings {
    /** At most what {@code RedlockConfig} accepts. */
    private static final int MAX_NODES = 64;
    /** The longest lease the library grants. */
    private static final Duration MAX_TTL = Duration.ofDays(1);

    private final int nodes;
    private final int quorum;
    private final boolean quorumExplicit;
    private final double driftFactor;
    private final Duration fixedDrift;
    private final Duration ttl;
    private final Duration nodeTimeout;
    private final int clients;
    private final Duration duration;
    private final int rounds;
    private final long seed;
    private final boolean aof;
    private final Duration restartQuarantine;
    private final boolean restartQuarantineExplicit;
    private final int clockNode;
    private final Set<Integer> ownProxies;

    private Settings(Builder b, int quorum, Duration restartQuarantine) {
        this.nodes = b.nodes;
        this.quorum = quorum;
        this.quorumExplicit = b.quorum != null;
        this.driftFactor = b.driftFactor;
        this.fixedDrift = b.fixedDrift;
        this.ttl = b.ttl;
        this.nodeTimeout = b.nodeTimeout;
        this.clients = b.clients;
        this.duration = b.duration;
        this.rounds = b.rounds;
        this.seed = b.seed;
        this.aof = b.aof;
        this.restartQuarantine = restartQuarantine;
        this.restartQuarantineExplicit = b.restartQuarantine != null;
        this.clockNode = b.clockNode;
        this.ownProxies = Set.copyOf(b.ownProxies);
    }

    /**
     * A builder with the defaults: 5 nodes, quorum N/2+1, drift 1 % + 2 ms, TTL 300 ms, node timeout 250 ms (healthy
     * nodes on a loaded 2-core machine can take over 100 ms to answer), 2 clients, workload phase 2 s, 2 rounds, seed
     * 0 (a fresh one per run), no AOF, the amnesia guard on (quarantine 2 x TTL), no faketime node, no own proxies.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these settings; derived fields stay derived (see the class comment). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.nodes = nodes;
        b.quorum = quorumExplicit ? quorum : null;
        b.driftFactor = driftFactor;
        b.fixedDrift = fixedDrift;
        b.ttl = ttl;
        b.nodeTimeout = nodeTimeout;
        b.clients = clients;
        b.duration = duration;
        b.rounds = rounds;
        b.seed = seed;
        b.aof = aof;
        b.restartQuarantine = restartQuarantineExplicit ? restartQuarantine : null;
        b.clockNode = clockNode;
        b.ownProxies = ownProxies;
        return b;
    }

    /** N, independent Redis masters. */
    public int nodes() { return nodes; }

    /** Grants needed. */
    public int quorum() { return quorum; }

    /** The clients' drift factor. */
    public double driftFactor() { return driftFactor; }

    /** The clients' fixed drift. */
    public Duration fixedDrift() { return fixedDrift; }

    /** The lease TTL. */
    public Duration ttl() { return ttl; }

    /** The clients' per-node timeout. */
    public Duration nodeTimeout() { return nodeTimeout; }

    /** K workload clients, each with its own Redlock instance. */
    public int clients() { return clients; }

    /** Length of the random workload phase(s), where the scenario has one. */
    public Duration duration() { return duration; }

    /** Repetitions of a scripted interleaving, where the scenario has one. */
    public int rounds() { return rounds; }

    /** Seeds every random choice of the harness (victim nodes, delays, jitter); 0: a fresh seed per run. */
    public long seed() { return seed; }

    /** Whether the nodes run with AOF {@code appendfsync always}. */
    public boolean aof() { return aof; }

    /** The amnesia guard's quarantine; {@link Duration#ZERO} = off. When on, nodes are marked fresh at start. */
    public Duration restartQuarantine() { return restartQuarantine; }

    /** Whether the amnesia guard is on (a non-zero {@link #restartQuarantine()}). */
    public boolean guardOn() {
        return !restartQuarantine.isZero();
    }

    /** The node started under libfaketime when available; -1: none. */
    public int clockNode() { return clockNode; }

    /** Clients that get their own proxy set ("c&lt;i&gt;") instead of the shared main set. */
    public Set<Integer> ownProxies() { return ownProxies; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Settings s && nodes == s.nodes && quorum == s.quorum && quorumExplicit == s.quorumExplicit
                && Double.compare(driftFactor, s.driftFactor) == 0 && fixedDrift.equals(s.fixedDrift)
                && ttl.equals(s.ttl) && nodeTimeout.equals(s.nodeTimeout) && clients == s.clients
                && duration.equals(s.duration) && rounds == s.rounds && seed == s.seed && aof == s.aof
                && restartQuarantine.equals(s.restartQuarantine)
                && restartQuarantineExplicit == s.restartQuarantineExplicit && clockNode == s.clockNode
                && ownProxies.equals(s.ownProxies);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nodes, quorum, quorumExplicit, driftFactor, fixedDrift, ttl, nodeTimeout, clients, duration,
                rounds, seed, aof, restartQuarantine, restartQuarantineExplicit, clockNode, ownProxies);
    }

    @Override
    public String toString() {
        return "N=" + nodes + " quorum=" + quorum + " drift=" + driftFactor + "+" + fixedDrift.toMillis() + "ms ttl="
                + ttl.toMillis() + "ms nodeTimeout=" + nodeTimeout.toMillis() + "ms clients=" + clients
                + " duration=" + duration.toMillis() + "ms rounds=" + rounds + " aof=" + aof + " restartQuarantine="
                + restartQuarantine.toMillis() + "ms seed=" + seed;
    }

    /** Collects the settings; {@link #build()} validates them. Not thread-safe; reusable after {@code build()}. */
    public static final class Builder {
        private int nodes = 5;
        private Integer quorum;
        // the library's defaults, from its option catalogue; the ranges are the library's too (checkClientConfig)
        private double driftFactor = (Double) ConfigOption.DRIFT_FACTOR.defaultValue();
        private Duration fixedDrift = (Duration) ConfigOption.FIXED_DRIFT.defaultValue();
        private Duration ttl = Duration.ofMillis(300);
        private Duration nodeTimeout = Duration.ofMillis(250);
        private int clients = 2;
        private Duration duration = Duration.ofSeconds(2);
        private int rounds = 2;
        private long seed;
        private boolean aof;
        private Duration restartQuarantine;
        private int clockNode = -1;
        private Set<Integer> ownProxies = Set.of();

        private Builder() {}

        /** N, in [1, 64]; default 5. */
        public Builder nodes(int nodes) {
            this.nodes = nodes;
            return this;
        }

        /** Grants needed, N/2 &lt; quorum &lt;= N; default N/2+1 of the N at {@code build()}. */
        public Builder quorum(int quorum) {
            this.quorum = quorum;
            return this;
        }

        /** The clients' drift factor, in [0, 0.5); default 0.01. */
        public Builder driftFactor(double driftFactor) {
            this.driftFactor = driftFactor;
            return this;
        }

        /** The clients' fixed drift, in [0, 60s]; default 2 ms. */
        public Builder fixedDrift(Duration fixedDrift) {
            this.fixedDrift = fixedDrift;
            return this;
        }

        /**
         * The lease TTL, in [1ms, 24h], above the drift allowance ttl*driftFactor+fixedDrift and at most the restart
         * quarantine while the guard is on; default 300 ms.
         */
        public Builder ttl(Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        /** The clients' per-node timeout, in (0, 60s]; default 250 ms. */
        public Builder nodeTimeout(Duration nodeTimeout) {
            this.nodeTimeout = nodeTimeout;
            return this;
        }

        /** K workload clients, at least 1; default 2. */
        public Builder clients(int clients) {
            this.clients = clients;
            return this;
        }

        /** Length of the random workload phase(s), at least 0; default 2 s. */
        public Builder duration(Duration duration) {
            this.duration = duration;
            return this;
        }

        /** Repetitions of a scripted interleaving, at least 1; default 2. */
        public Builder rounds(int rounds) {
            this.rounds = rounds;
            return this;
        }

        /** Seeds the harness's random choices; 0 (the default): a fresh seed per run. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Nodes run with AOF {@code appendfsync always}; default off. */
        public Builder aof(boolean aof) {
            this.aof = aof;
            return this;
        }

        /**
         * The amnesia guard's quarantine, 0 (off) or in [ttl, 24h]. Unless set here it is 2 x the TTL at
         * {@code build()}, whatever the order of the calls.
         */
        public Builder restartQuarantine(Duration restartQuarantine) {
            if (restartQuarantine == null) {
                throw new IllegalArgumentException("restartQuarantine must not be null (Duration.ZERO: guard off)");
            }
            this.restartQuarantine = restartQuarantine;
            return this;
        }

        /** The node started under libfaketime when available, in [-1, N) (-1: none, the default). */
        public Builder clockNode(int clockNode) {
            this.clockNode = clockNode;
            return this;
        }

        /** Clients that get their own proxy set, each in [0, clients); default none. */
        public Builder ownProxies(Set<Integer> clients) {
            this.ownProxies = clients;
            return this;
        }

        /**
         * Validates every field and returns immutable settings.
         *
         * @throws IllegalArgumentException naming the field, its value and the allowed range
         */
        public Settings build() {
            if (nodes < 1 || nodes > MAX_NODES) {
                throw new IllegalArgumentException("nodes must be in [1, " + MAX_NODES + "], got " + nodes);
            }
            if (ttl == null || ttl.isNegative() || ttl.isZero() || ttl.compareTo(MAX_TTL) > 0) {
                throw new IllegalArgumentException("ttl must be in (0, " + Durations.human(MAX_TTL) + "], got "
                        + Durations.human(ttl));
            }
            int q = quorum != null ? quorum : nodes / 2 + 1;
            Duration quarantine = restartQuarantine != null ? restartQuarantine : ttl.multipliedBy(2);
            checkClientConfig(q, quarantine);
            Duration allowance = Duration.ofNanos((long) (ttl.toNanos() * driftFactor)).plus(fixedDrift);
            if (ttl.toMillis() < 1 || ttl.compareTo(allowance) <= 0) {
                throw new IllegalArgumentException("ttl must be at least 1ms and greater than the drift allowance "
                        + "ttl*driftFactor+fixedDrift (" + Durations.human(allowance) + "), got " + Durations.human(ttl));
            }
            if (!quarantine.isZero() && quarantine.compareTo(ttl) < 0) {
                throw new IllegalArgumentException("restartQuarantine must be 0 (guard off) or at least the ttl ("
                        + Durations.human(ttl) + "): the clients refuse a ttl above the quarantine while the guard "
                        + "is on; got " + Durations.human(quarantine));
            }
            if (clients < 1) throw new IllegalArgumentException("clients must be >= 1, got " + clients);
            if (duration == null || duration.isNegative()) {
                throw new IllegalArgumentException("duration must be >= 0, got " + Durations.human(duration));
            }
            if (rounds < 1) throw new IllegalArgumentException("rounds must be >= 1, got " + rounds);
            if (clockNode < -1 || clockNode >= nodes) {
                throw new IllegalArgumentException("clockNode must be in [-1, N) (N=" + nodes + "; -1: none), got "
                        + clockNode);
            }
            if (ownProxies == null) throw new IllegalArgumentException("ownProxies must not be null (Set.of(): none)");
            for (Integer c : ownProxies) {
                if (c == null || c < 0 || c >= clients) {
                    throw new IllegalArgumentException("ownProxies must hold clients in [0, clients) (clients="
                            + clients + "), got " + c + " in " + ownProxies);
                }
            }
            return new Settings(this, q, quarantine);
        }

        /**
         * The clients' part (quorum, drift, node timeout, quarantine) by the rules of the config the runner builds
         * from it ({@code ScenarioRunner.config}), so the two cannot disagree; the node addresses are placeholders.
         */
        private void checkClientConfig(int quorum, Duration quarantine) {
            List<String> placeholders = IntStream.rangeClosed(1, nodes).mapToObj(i -> "redis://127.0.0.1:" + i).toList();
            RedlockConfig.builder().nodes(placeholders).quorum(quorum).driftFactor(driftFactor).fixedDrift(fixedDrift)
                    .nodeTimeout(nodeTimeout).restartQuarantine(quarantine).build();
        }
    }
}
