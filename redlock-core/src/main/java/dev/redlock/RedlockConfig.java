package dev.redlock;

import dev.redlock.internal.ConfigOption;
import dev.redlock.internal.Diagnostics;
import dev.redlock.internal.Durations;
import dev.redlock.internal.Endpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * Immutable settings of a {@link Redlock}: which independent Redis masters, how many must agree, how much clock
 * drift to allow, how long to wait per node, how to retry, and whether to issue fencing tokens.
 *
 * <p>Built by {@link #builder()}, or read from {@link Properties} / a {@code .properties} file with
 * {@link #fromProperties(Properties)} and {@link #load(Path)} (keys below). {@link Builder#build()} validates every
 * field, including rules that cross fields, and throws {@link IllegalArgumentException} naming the field, the value
 * and the allowed range. Nothing is silently clamped. {@link #toString()} never shows a password.
 *
 * <table>
 *   <caption>Options (property key: {@code redlock.<name>}); a test checks this table against the option catalogue</caption>
 *   <tr><th>name</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>nodes</td><td>required</td><td>1..64 distinct {@code redis://} / {@code rediss://} URIs, comma-separated in
 *       properties; {@code ?name=} names a node reached by different addresses from different clients</td></tr>
 *   <tr><td>quorum</td><td>N/2+1</td><td>N/2 &lt; quorum &lt;= N</td></tr>
 *   <tr><td>driftFactor</td><td>0.01</td><td>[0, 0.5)</td></tr>
 *   <tr><td>fixedDrift</td><td>2ms</td><td>[0, 60s]</td></tr>
 *   <tr><td>nodeTimeout</td><td>100ms</td><td>(0, 60s]</td></tr>
 *   <tr><td>retryCount</td><td>3</td><td>[0, 10000] retries after the first round</td></tr>
 *   <tr><td>retryDelay</td><td>200ms</td><td>[0, 60s]</td></tr>
 *   <tr><td>retryJitter</td><td>100ms</td><td>[0, 60s]; each wait is uniform in delay &plusmn; jitter, never negative</td></tr>
 *   <tr><td>keyPrefix</td><td>{@code redlock:}</td><td>1..256 characters, no whitespace</td></tr>
 *   <tr><td>fencing</td><td>true</td><td>true / false</td></tr>
 *   <tr><td>restartQuarantine</td><td>30s</td><td>[0, 24h]; 0 turns the amnesia guard off; lease TTLs may not exceed it</td></tr>
 *   <tr><td>preflight</td><td>STRICT</td><td>STRICT / WARN / OFF (case-insensitive in properties)</td></tr>
 *   <tr><td>previousNodes</td><td>none</td><td>1..64 distinct URIs, not the same set as {@code nodes}; during a
 *       change of the node list: the list being replaced; every round then needs a quorum of both lists</td></tr>
 *   <tr><td>previousQuorum</td><td>P/2+1</td><td>P/2 &lt; previousQuorum &lt;= P (P = size of previousNodes); only
 *       with previousNodes</td></tr>
 *   <tr><td>maxHold</td><td>0 (no cap)</td><td>0, or (nodeTimeout, 24h]; how long auto-extension keeps a lease</td></tr>
 *   <tr><td>tlsTrustStore, tlsTrustStorePassword</td><td>the JDK's trust store</td><td>a readable PKCS12 or JKS file
 *       that opens with the password; certificates trusted by {@code rediss://} connections</td></tr>
 *   <tr><td>tlsKeyStore, tlsKeyStorePassword</td><td>none</td><td>a readable PKCS12 or JKS file that opens with the
 *       password; the client certificate and key for mutual TLS</td></tr>
 * </table>
 * Durations in properties: {@code 250ms}, {@code 2s}, {@code 1m}, {@code 1h}, ISO-8601 ({@code PT2S}) or a plain
 * number of milliseconds.
 */
public final class RedlockConfig {
    static final String PROPERTY_PREFIX = ConfigOption.PROPERTY_PREFIX;

    static {
        Endpoints.install((config, node) -> NodeClient.endpoint(config.nodes.get(node), config));
        Diagnostics.install(new NodeDiagnostics());
    }

    private final List<NodeAddress> nodes;
    private final int quorum;
    private final double driftFactor;
    private final Duration fixedDrift;
    private final Duration nodeTimeout;
    private final int retryCount;
    private final Duration retryDelay;
    private final Duration retryJitter;
    private final String keyPrefix;
    private final boolean fencing;
    private final Duration restartQuarantine;
    private final Preflight preflight;
    private final List<NodeAddress> previousNodes;
    private final int previousQuorum;
    private final List<NodeAddress> allNodes;
    private final Path tlsTrustStore;
    private final String tlsTrustStorePassword;
    private final Path tlsKeyStore;
    private final String tlsKeyStorePassword;
    private final Duration maxHold;

    private RedlockConfig(Builder b, List<NodeAddress> nodes, int quorum, List<NodeAddress> previousNodes,
                          int previousQuorum) {
        this.nodes = List.copyOf(nodes);
        this.quorum = quorum;
        this.previousNodes = List.copyOf(previousNodes);
        this.previousQuorum = previousQuorum;
        List<NodeAddress> all = new ArrayList<>(nodes);
        for (NodeAddress p : previousNodes) if (nodes.stream().noneMatch(p::sameEndpoint)) all.add(p);
        this.allNodes = List.copyOf(all);
        this.driftFactor = b.driftFactor;
        this.fixedDrift = b.fixedDrift;
        this.nodeTimeout = b.nodeTimeout;
        this.retryCount = b.retryCount;
        this.retryDelay = b.retryDelay;
        this.retryJitter = b.retryJitter;
        this.keyPrefix = b.keyPrefix;
        this.fencing = b.fencing;
        this.restartQuarantine = b.restartQuarantine;
        this.preflight = b.preflight;
        this.tlsTrustStore = b.tlsTrustStore;
        this.tlsTrustStorePassword = b.tlsTrustStorePassword;
        this.tlsKeyStore = b.tlsKeyStore;
        this.tlsKeyStorePassword = b.tlsKeyStorePassword;
        this.maxHold = b.maxHold;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder preset with this config's values (passwords included, so the copy connects). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.nodes = null;
        b.parsedNodes = nodes;
        b.quorum = quorum;
        b.driftFactor = driftFactor;
        b.fixedDrift = fixedDrift;
        b.nodeTimeout = nodeTimeout;
        b.retryCount = retryCount;
        b.retryDelay = retryDelay;
        b.retryJitter = retryJitter;
        b.keyPrefix = keyPrefix;
        b.fencing = fencing;
        b.restartQuarantine = restartQuarantine;
        b.preflight = preflight;
        b.previousNodes = null;
        b.parsedPreviousNodes = previousNodes;
        b.previousQuorum = previousNodes.isEmpty() ? null : previousQuorum;
        b.tlsTrustStore = tlsTrustStore;
        b.tlsTrustStorePassword = tlsTrustStorePassword;
        b.tlsKeyStore = tlsKeyStore;
        b.tlsKeyStorePassword = tlsKeyStorePassword;
        b.maxHold = maxHold;
        return b;
    }

    /**
     * Reads {@code redlock.*} keys (see the class doc). Unknown {@code redlock.*} keys are rejected, so a typo
     * cannot silently fall back to a default.
     *
     * @throws IllegalArgumentException naming the key, on a missing, unknown or malformed value
     */
    public static RedlockConfig fromProperties(Properties props) {
        return ConfigProperties.parse(props);
    }

    /** Loads a {@code .properties} file (UTF-8) and calls {@link #fromProperties(Properties)}. */
    public static RedlockConfig load(Path file) {
        return ConfigProperties.load(file);
    }

    /** The node addresses, passwords replaced by {@code ***}. */
    public List<String> nodes() {
        return nodes.stream().map(NodeAddress::redacted).toList();
    }

    List<NodeAddress> nodeAddresses() {
        return nodes;
    }

    /**
     * During a change of the node list: the list being replaced (passwords replaced by {@code ***}); empty
     * otherwise. With a previous list, every acquire, extension and fence write needs a quorum of each list, so
     * this client never holds a lock that a client of either list could hold at the same time (see
     * {@link Builder#previousNodes(List)}).
     */
    public List<String> previousNodes() {
        return previousNodes.stream().map(NodeAddress::redacted).toList();
    }

    /** How many nodes of {@link #previousNodes()} must agree; 0 when there is no previous list. */
    public int previousQuorum() {
        return previousQuorum;
    }

    List<NodeAddress> previousNodeAddresses() {
        return previousNodes;
    }

    /** Every node the client talks to: {@link #nodes()} in order, then the previous list's nodes not among them. */
    List<NodeAddress> allNodeAddresses() {
        return allNodes;
    }

    public int quorum() { return quorum; }

    public double driftFactor() { return driftFactor; }

    public Duration fixedDrift() { return fixedDrift; }

    public Duration nodeTimeout() { return nodeTimeout; }

    public int retryCount() { return retryCount; }

    public Duration retryDelay() { return retryDelay; }

    public Duration retryJitter() { return retryJitter; }

    public String keyPrefix() { return keyPrefix; }

    public boolean fencing() { return fencing; }

    public Duration restartQuarantine() { return restartQuarantine; }

    /** What {@link Redlock#create} does about node settings that break the guarantees; default {@link Preflight#STRICT}. */
    public Preflight preflight() { return preflight; }
    /** How long auto-extension keeps a lease after its acquire before the lease is lost; {@link Duration#ZERO} = no cap. */
    public Duration maxHold() { return maxHold; }

    /** The trust store of {@code rediss://} connections; empty = the JDK's default trust store. */
    public Optional<Path> tlsTrustStore() { return Optional.ofNullable(tlsTrustStore); }

    /** The client key store for mutual TLS; empty = no client certificate. */
    public Optional<Path> tlsKeyStore() { return Optional.ofNullable(tlsKeyStore); }

    Path tlsTrustStorePath() { return tlsTrustStore; }

    String tlsTrustStorePassword() { return tlsTrustStorePassword; }

    Path tlsKeyStorePath() { return tlsKeyStore; }

    String tlsKeyStorePassword() { return tlsKeyStorePassword; }

    /** The drift allowance subtracted from a lease of this TTL: {@code ttl * driftFactor + fixedDrift}, in nanos. */
    long driftNanos(Duration ttl) {
        return (long) (ttl.toNanos() * driftFactor) + fixedDrift.toNanos();
    }

    @Override
    public String toString() {
        return "RedlockConfig{nodes=" + nodes() + ", quorum=" + quorum + ", driftFactor=" + driftFactor
                + ", fixedDrift=" + fixedDrift.toMillis() + "ms, nodeTimeout=" + nodeTimeout.toMillis()
                + "ms, retryCount=" + retryCount + ", retryDelay=" + retryDelay.toMillis() + "ms, retryJitter="
                + retryJitter.toMillis() + "ms, keyPrefix='" + keyPrefix + "', fencing=" + fencing
                + ", restartQuarantine=" + restartQuarantine.toMillis() + "ms, preflight=" + preflight
                + (previousNodes.isEmpty() ? "" : ", previousNodes=" + previousNodes() + ", previousQuorum=" + previousQuorum)
                + ", maxHold=" + maxHold.toMillis() + "ms"
                + (tlsTrustStore != null ? ", tlsTrustStore=" + tlsTrustStore : "")
                + (tlsKeyStore != null ? ", tlsKeyStore=" + tlsKeyStore : "") + "}";
    }

    /**
     * Mutable, reusable builder; {@link #build()} validates and snapshots. Not thread-safe.
     */
    public static final class Builder {
        private List<String> nodes = List.of();
        private List<NodeAddress> parsedNodes;
        private Integer quorum;
        // the defaults are the catalogue's (ConfigOption), so they are written once
        private double driftFactor = (Double) ConfigOption.DRIFT_FACTOR.defaultValue();
        private Duration fixedDrift = (Duration) ConfigOption.FIXED_DRIFT.defaultValue();
        private Duration nodeTimeout = (Duration) ConfigOption.NODE_TIMEOUT.defaultValue();
        private int retryCount = (Integer) ConfigOption.RETRY_COUNT.defaultValue();
        private Duration retryDelay = (Duration) ConfigOption.RETRY_DELAY.defaultValue();
        private Duration retryJitter = (Duration) ConfigOption.RETRY_JITTER.defaultValue();
        private String keyPrefix = (String) ConfigOption.KEY_PREFIX.defaultValue();
        private boolean fencing = (Boolean) ConfigOption.FENCING.defaultValue();
        private Duration restartQuarantine = (Duration) ConfigOption.RESTART_QUARANTINE.defaultValue();
        private Preflight preflight = (Preflight) ConfigOption.PREFLIGHT.defaultValue();
        private List<String> previousNodes = List.of();
        private List<NodeAddress> parsedPreviousNodes;
        private Integer previousQuorum;
        private Path tlsTrustStore;
        private String tlsTrustStorePassword;
        private Path tlsKeyStore;
        private String tlsKeyStorePassword;
        private Duration maxHold = (Duration) ConfigOption.MAX_HOLD.defaultValue();

        private Builder() {}

        /**
         * The independent Redis masters, as {@code redis://[user:password@]host:port[/db][?name=id]} or
         * {@code rediss://...}. The node list is part of the lock (see {@link #previousNodes(List)}): every client of a
         * lock namespace must name the same nodes, by the same addresses or by the same {@code name}.
         */
        public Builder nodes(String... uris) {
            return nodes(Arrays.asList(Objects.requireNonNull(uris, "nodes")));
        }

        /** Same as {@link #nodes(String...)}. */
        public Builder nodes(List<String> uris) {
            Objects.requireNonNull(uris, "nodes");
            this.nodes = new ArrayList<>(uris);
            this.parsedNodes = null;
            return this;
        }

        /** How many nodes must grant; default N/2+1. Must satisfy N/2 &lt; quorum &lt;= N. */
        public Builder quorum(int quorum) {
            this.quorum = quorum;
            return this;
        }

        /** Fraction of the TTL assumed lost to clock drift, in [0, 0.5); default 0.01. */
        public Builder driftFactor(double driftFactor) {
            this.driftFactor = driftFactor;
            return this;
        }

        /** Drift added on top of {@code ttl * driftFactor}, in [0, 60s]; default 2 ms. */
        public Builder fixedDrift(Duration fixedDrift) {
            this.fixedDrift = fixedDrift;
            return this;
        }

        /** How long one node may take to answer one command before its vote counts as TIMEOUT, in (0, 60s]. */
        public Builder nodeTimeout(Duration nodeTimeout) {
            this.nodeTimeout = nodeTimeout;
            return this;
        }

        /** Rounds tried after the first one fails, in [0, 10000]; default 3. */
        public Builder retryCount(int retryCount) {
            this.retryCount = retryCount;
            return this;
        }

        /** Mean wait between rounds, in [0, 60s]; default 200 ms. */
        public Builder retryDelay(Duration retryDelay) {
            this.retryDelay = retryDelay;
            return this;
        }

        /** Half-width of the uniform jitter around {@link #retryDelay}, in [0, 60s]; default 100 ms. */
        public Builder retryJitter(Duration retryJitter) {
            this.retryJitter = retryJitter;
            return this;
        }

        /** Prefix of every key this library writes; default {@code redlock:}. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** Whether acquire issues fencing tokens (one more round trip); default true. */
        public Builder fencing(boolean fencing) {
            this.fencing = fencing;
            return this;
        }

        /**
         * Amnesia guard: a node whose memory began less than this long ago (restart without persistence, FLUSHALL,
         * failover to an empty replica) refuses to grant. Must be at least the longest lease TTL; {@link Duration#ZERO}
         * turns the guard off. Default 30 s. See {@link Redlock#markNodesFresh()} for brand-new deployments.
         */
        public Builder restartQuarantine(Duration restartQuarantine) {
            this.restartQuarantine = restartQuarantine;
            return this;
        }

        /**
         * What {@link Redlock#create} does about node settings that break the guarantees (eviction policy, replica
         * role, clock offset, Redis version): refuse ({@link Preflight#STRICT}, the default), log
         * ({@link Preflight#WARN}) or skip the checks ({@link Preflight#OFF}).
         */
        public Builder preflight(Preflight preflight) {
            this.preflight = preflight;
            return this;
        }

        /**
         * Declares a change of the node list in progress (a transition configuration): {@code uris} is the list
         * being replaced, {@link #nodes} the new one. Every round then needs {@link #quorum} nodes of the new list
         * <em>and</em> {@link #previousQuorum} nodes of the previous one, so it intersects every quorum of a client
         * still running on either list, and the nodes accept this client beside clients of either list. The safe
         * procedure for a rolling change (every client on the old list, then every client on this transition
         * configuration, then every client on the new list) is in {@code docs/deployments.md}. Empty (the default)
         * = no change in progress.
         */
        public Builder previousNodes(String... uris) {
            return previousNodes(Arrays.asList(Objects.requireNonNull(uris, "previousNodes")));
        }

        /** Same as {@link #previousNodes(String...)}. */
        public Builder previousNodes(List<String> uris) {
            Objects.requireNonNull(uris, "previousNodes");
            this.previousNodes = new ArrayList<>(uris);
            this.parsedPreviousNodes = null;
            return this;
        }

        /** How many nodes of {@link #previousNodes} must agree; default P/2+1. Must satisfy P/2 &lt; q &lt;= P. */
        public Builder previousQuorum(int previousQuorum) {
            this.previousQuorum = previousQuorum;
            return this;
        }

        /**
         * Certificates that {@code rediss://} connections trust, instead of the JDK's default trust store: a PKCS12 or
         * JKS file (the type is detected) and its password ({@code null} for none). {@code null} store = the default.
         */
        public Builder tlsTrustStore(Path store, String password) {
            this.tlsTrustStore = store;
            this.tlsTrustStorePassword = password;
            return this;
        }

        /**
         * The client certificate and private key that {@code rediss://} connections present (mutual TLS): a PKCS12
         * or JKS file and its password (also the key's password). {@code null} store = no client certificate.
         */
        public Builder tlsKeyStore(Path store, String password) {
            this.tlsKeyStore = store;
            this.tlsKeyStorePassword = password;
            return this;
        }

        // one part of a store at a time, for the properties (each key on its own)
        Builder tlsTrustStorePath(Path store) { this.tlsTrustStore = store; return this; }

        Builder tlsTrustStorePassword(String password) { this.tlsTrustStorePassword = password; return this; }

        Builder tlsKeyStorePath(Path store) { this.tlsKeyStore = store; return this; }

        Builder tlsKeyStorePassword(String password) { this.tlsKeyStorePassword = password; return this; }

        /**
         * How long auto-extension (the watchdog of {@link Lease#keepAlive()}, {@code withLock}, {@code withLockAsync},
         * {@link RedlockLock}) keeps a lease, counted from its acquire; then the lease is lost (reason
         * {@code MAX_HOLD}, its keys released), so a stuck holder cannot keep a lock forever. 0 or more than
         * {@code nodeTimeout}, at most 24 h; default {@link Duration#ZERO}: no cap. Manual {@link Lease#extend} is not
         * capped.
         */
        public Builder maxHold(Duration maxHold) {
            this.maxHold = maxHold;
            return this;
        }

        /**
         * Validates every field and returns an immutable config.
         *
         * @throws IllegalArgumentException naming the field, its value and the allowed range
         */
        public RedlockConfig build() {
            List<NodeAddress> parsed = parsedNodes != null ? parsedNodes : ConfigChecks.parseNodes(nodes, "nodes");
            int n = parsed.size();
            int q = quorum == null ? n / 2 + 1 : quorum;
            if (q <= n / 2 || q > n) {
                throw new IllegalArgumentException("quorum must satisfy N/2 < quorum <= N (N=" + n + "), got " + q);
            }
            ConfigOption.DRIFT_FACTOR.checkNumber(driftFactor);
            ConfigOption.FIXED_DRIFT.checkDuration(fixedDrift);
            ConfigOption.NODE_TIMEOUT.checkDuration(nodeTimeout);
            ConfigOption.RETRY_COUNT.checkNumber(retryCount);
            ConfigOption.RETRY_DELAY.checkDuration(retryDelay);
            ConfigOption.RETRY_JITTER.checkDuration(retryJitter);
            if (keyPrefix == null || keyPrefix.isEmpty() || keyPrefix.length() > 256
                    || keyPrefix.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
                throw new IllegalArgumentException("keyPrefix must be " + ConfigOption.KEY_PREFIX.allowed() + ", got "
                        + (keyPrefix == null ? "null" : "'" + keyPrefix + "'"));
            }
            ConfigOption.RESTART_QUARANTINE.checkDuration(restartQuarantine);
            Duration minQuarantine = ConfigChecks.smallestTtl(driftFactor, fixedDrift);
            if (!restartQuarantine.isZero() && restartQuarantine.compareTo(minQuarantine) < 0) {
                throw new IllegalArgumentException("restartQuarantine must be 0 (amnesia guard off) or at least the "
                        + "smallest lease TTL the drift allowance leaves validity in (" + Durations.human(minQuarantine)
                        + " with driftFactor=" + driftFactor + ", fixedDrift=" + Durations.human(fixedDrift)
                        + "), since lease TTLs may not exceed it; got " + Durations.human(restartQuarantine));
            }
            if (preflight == null) throw new IllegalArgumentException("preflight must be STRICT, WARN or OFF, got null");
            ConfigChecks.checkStore("tlsTrustStore", tlsTrustStore, tlsTrustStorePassword);
            ConfigChecks.checkStore("tlsKeyStore", tlsKeyStore, tlsKeyStorePassword);
            ConfigOption.MAX_HOLD.checkDuration(maxHold);
            if (!maxHold.isZero() && maxHold.compareTo(nodeTimeout) <= 0) {
                throw new IllegalArgumentException("maxHold must be 0 (no cap) or greater than nodeTimeout ("
                        + Durations.human(nodeTimeout) + "), got " + Durations.human(maxHold));
            }
            List<NodeAddress> previous = parsedPreviousNodes != null ? parsedPreviousNodes
                    : previousNodes.isEmpty() ? List.of() : ConfigChecks.parseNodes(previousNodes, "previousNodes");
            int pq = 0;
            if (previous.isEmpty()) {
                if (previousQuorum != null) {
                    throw new IllegalArgumentException("previousQuorum is set (" + previousQuorum
                            + ") but previousNodes is not: a previous quorum needs the previous node list");
                }
            } else {
                int p = previous.size();
                pq = previousQuorum == null ? p / 2 + 1 : previousQuorum;
                if (pq <= p / 2 || pq > p) {
                    throw new IllegalArgumentException("previousQuorum must satisfy P/2 < previousQuorum <= P (P=" + p
                            + "), got " + pq);
                }
                if (ConfigChecks.sameSet(previous, parsed)) {
                    throw new IllegalArgumentException("previousNodes must differ from nodes (a transition from a "
                            + "list to another), but they name the same " + p + " servers; drop previousNodes");
                }
            }
            return new RedlockConfig(this, parsed, q, previous, pq);
        }
    }
}
