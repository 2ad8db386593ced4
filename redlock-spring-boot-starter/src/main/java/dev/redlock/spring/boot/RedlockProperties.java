package dev.redlock.spring.boot;

import dev.redlock.Preflight;
import dev.redlock.RedlockConfig;
import dev.redlock.internal.ConfigOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code redlock.*} properties: every {@link RedlockConfig} option in kebab-case ({@code redlock.nodes},
 * {@code redlock.node-timeout}, {@code redlock.restart-quarantine}, {@code redlock.preflight}, the TLS stores, ...)
 * with the same defaults and ranges, plus the starter's own ({@code redlock.enabled}, {@code redlock.health.timeout},
 * {@code redlock.lock-registry.ttl}, {@code redlock.observations.*}). Validated when the {@code Redlock} bean is created: a bad value fails the
 * start-up with a message naming the property, its value and the allowed range. Mutable (Spring binds it); not
 * thread-safe.
 */
@ConfigurationProperties("redlock")
public class RedlockProperties {
    /** The core's options (its catalogue): a core message naming one of them is rewritten to name the property. */
    private static final Set<String> OPTIONS = Set.copyOf(ConfigOption.keys());

    /** Whether to auto-configure a Redlock (and the beans built on it). */
    private boolean enabled = true;

    /** The independent Redis masters: 1..64 distinct redis://[user:password@]host[:port][/db] or rediss:// URIs. */
    private List<String> nodes = new ArrayList<>();

    /** How many nodes must grant; default N/2+1. Must satisfy N/2 < quorum <= N. */
    private Integer quorum;

    /** Fraction of the TTL assumed lost to clock drift, in [0, 0.5). */
    private double driftFactor = 0.01;

    /** Drift added on top of ttl * drift-factor, in [0, 60s]. */
    private Duration fixedDrift = Duration.ofMillis(2);

    /** How long one node may take to answer before its vote counts as a timeout, in (0, 60s]. */
    private Duration nodeTimeout = Duration.ofMillis(100);

    /** Rounds tried after the first one fails, in [0, 10000]. */
    private int retryCount = 3;

    /** Mean wait between rounds, in [0, 60s]. */
    private Duration retryDelay = Duration.ofMillis(200);

    /** Half-width of the uniform jitter around retry-delay, in [0, 60s]. */
    private Duration retryJitter = Duration.ofMillis(100);

    /** Prefix of every key the library writes; 1..256 characters, no whitespace. */
    private String keyPrefix = "redlock:";

    /** Whether acquisitions issue fencing tokens (one more round trip). */
    private boolean fencing = true;

    /**
     * Amnesia guard: a node whose memory began less than this long ago refuses to grant, in [0, 24h]; 0 turns it
     * off. Lease TTLs (a ShedLock lockAtMostFor, the lock registry's ttl) may not exceed it.
     */
    private Duration restartQuarantine = Duration.ofSeconds(30);

    /** What start-up does about node settings that break the guarantees: STRICT (refuse), WARN (log) or OFF. */
    private Preflight preflight = Preflight.STRICT;

    /**
     * During a change of the node list: the list being replaced (1..64 distinct URIs, not the same set as nodes);
     * every round then needs a quorum of both lists. Empty = no change in progress.
     */
    private List<String> previousNodes = new ArrayList<>();

    /** How many nodes of previous-nodes must agree; default P/2+1. Only with previous-nodes. */
    private Integer previousQuorum;

    /** PKCS12 or JKS file of the certificates rediss:// connections trust; default: the JDK's trust store. */
    private Path tlsTrustStore;

    /** Password of tls-trust-store. */
    private String tlsTrustStorePassword;

    /** PKCS12 or JKS file with the client certificate and key for mutual TLS. */
    private Path tlsKeyStore;

    /** Password of tls-key-store (and of its key). */
    private String tlsKeyStorePassword;

    /**
     * How long auto-extension keeps a lease after its acquire (then it is lost, reason max_hold); 0 = no cap, else
     * more than node-timeout and at most 24h.
     */
    private Duration maxHold = Duration.ZERO;

    private final Health health = new Health();

    private final LockRegistry lockRegistry = new LockRegistry();

    private final Observations observations = new Observations();

    /**
     * The validated core config.
     *
     * @throws IllegalArgumentException naming the {@code redlock.*} property, its value and the allowed range
     */
    public RedlockConfig toConfig() {
        RedlockConfig.Builder b = RedlockConfig.builder()
                .nodes(nodes)
                .driftFactor(driftFactor)
                .fixedDrift(fixedDrift)
                .nodeTimeout(nodeTimeout)
                .retryCount(retryCount)
                .retryDelay(retryDelay)
                .retryJitter(retryJitter)
                .keyPrefix(keyPrefix)
                .fencing(fencing)
                .restartQuarantine(restartQuarantine)
                .preflight(preflight)
                .tlsTrustStore(tlsTrustStore, tlsTrustStorePassword)
                .tlsKeyStore(tlsKeyStore, tlsKeyStorePassword)
                .maxHold(maxHold);
        if (quorum != null) b.quorum(quorum);
        if (previousNodes != null && !previousNodes.isEmpty()) b.previousNodes(previousNodes);
        if (previousQuorum != null) b.previousQuorum(previousQuorum);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(propertyMessage(e.getMessage()), e);
        }
    }

    /** A core message names the option ({@code nodeTimeout must be ...}): name the property instead. */
    static String propertyMessage(String message) {
        if (message == null) return "invalid redlock.* properties";
        int end = 0;
        while (end < message.length() && Character.isLetter(message.charAt(end))) end++;
        String option = message.substring(0, end);
        if (!OPTIONS.contains(option)) return "invalid redlock.* properties: " + message;
        return "redlock." + ConfigOption.byKey(option).orElseThrow().kebab() + message.substring(end);
    }

    /** The health indicator's settings ({@code redlock.health.*}). */
    public static class Health {
        /** How long the health check waits for the nodes; a node that has not answered by then is DOWN. */
        private Duration timeout = Duration.ofSeconds(1);

        public Duration getTimeout() { return timeout; }

        public void setTimeout(Duration timeout) { this.timeout = timeout; }
    }

    /** The Spring Integration lock registry's settings ({@code redlock.lock-registry.*}). */
    public static class LockRegistry {
        /**
         * Lease TTL of the registry's locks: how long the nodes keep a lock whose process died (held locks are
         * extended by the watchdog). At most restart-quarantine while that is on.
         */
        private Duration ttl = Duration.ofSeconds(30);

        public Duration getTtl() { return ttl; }

        public void setTtl(Duration ttl) { this.ttl = ttl; }
    }

    /** The observations' settings ({@code redlock.observations.*}), used when an ObservationRegistry bean exists. */
    public static class Observations {
        /** Whether to observe acquire, extend and release (redlock.acquire, redlock.extend, redlock.release). */
        private boolean enabled = true;

        /** Whether spans carry the resource name (high-cardinality key "resource"; never a metric tag). */
        private boolean resourceName = false;

        public boolean isEnabled() { return enabled; }

        public void setEnabled(boolean enabled) { this.enabled = enabled; }

        public boolean isResourceName() { return resourceName; }

        public void setResourceName(boolean resourceName) { this.resourceName = resourceName; }
    }

    public boolean isEnabled() { return enabled; }

    public void setEnabled(boolean enabled) { this.enabled = enabled; }

    public List<String> getNodes() { return nodes; }

    public void setNodes(List<String> nodes) { this.nodes = nodes; }

    public Integer getQuorum() { return quorum; }

    public void setQuorum(Integer quorum) { this.quorum = quorum; }

    public double getDriftFactor() { return driftFactor; }

    public void setDriftFactor(double driftFactor) { this.driftFactor = driftFactor; }

    public Duration getFixedDrift() { return fixedDrift; }

    public void setFixedDrift(Duration fixedDrift) { this.fixedDrift = fixedDrift; }

    public Duration getNodeTimeout() { return nodeTimeout; }

    public void setNodeTimeout(Duration nodeTimeout) { this.nodeTimeout = nodeTimeout; }

    public int getRetryCount() { return retryCount; }

    public void setRetryCount(int retryCount) { this.retryCount = retryCount; }

    public Duration getRetryDelay() { return retryDelay; }

    public void setRetryDelay(Duration retryDelay) { this.retryDelay = retryDelay; }

    public Duration getRetryJitter() { return retryJitter; }

    public void setRetryJitter(Duration retryJitter) { this.retryJitter = retryJitter; }

    public String getKeyPrefix() { return keyPrefix; }

    public void setKeyPrefix(String keyPrefix) { this.keyPrefix = keyPrefix; }

    public boolean isFencing() { return fencing; }

    public void setFencing(boolean fencing) { this.fencing = fencing; }

    public Duration getRestartQuarantine() { return restartQuarantine; }

    public void setRestartQuarantine(Duration restartQuarantine) { this.restartQuarantine = restartQuarantine; }

    public Preflight getPreflight() { return preflight; }

    public void setPreflight(Preflight preflight) { this.preflight = preflight; }

    public List<String> getPreviousNodes() { return previousNodes; }

    public void setPreviousNodes(List<String> previousNodes) { this.previousNodes = previousNodes; }

    public Integer getPreviousQuorum() { return previousQuorum; }

    public void setPreviousQuorum(Integer previousQuorum) { this.previousQuorum = previousQuorum; }

    public Path getTlsTrustStore() { return tlsTrustStore; }

    public void setTlsTrustStore(Path tlsTrustStore) { this.tlsTrustStore = tlsTrustStore; }

    public String getTlsTrustStorePassword() { return tlsTrustStorePassword; }

    public void setTlsTrustStorePassword(String tlsTrustStorePassword) { this.tlsTrustStorePassword = tlsTrustStorePassword; }

    public Path getTlsKeyStore() { return tlsKeyStore; }

    public void setTlsKeyStore(Path tlsKeyStore) { this.tlsKeyStore = tlsKeyStore; }

    public String getTlsKeyStorePassword() { return tlsKeyStorePassword; }

    public void setTlsKeyStorePassword(String tlsKeyStorePassword) { this.tlsKeyStorePassword = tlsKeyStorePassword; }

    public Health getHealth() { return health; }

    public LockRegistry getLockRegistry() { return lockRegistry; }

    public Observations getObservations() { return observations; }

    public Duration getMaxHold() { return maxHold; }

    public void setMaxHold(Duration maxHold) { this.maxHold = maxHold; }
}
