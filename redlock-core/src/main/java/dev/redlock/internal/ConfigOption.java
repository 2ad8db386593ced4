package dev.redlock.internal;

import dev.redlock.Preflight;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The catalogue of {@code RedlockConfig}'s options, each defined once: its name (the builder setter, the getter and
 * the {@code redlock.<name>} property key), its type, its default, its allowed range and what it is for. The builder's
 * range checks, the properties parser and its list of known keys, and the Spring Boot starter read it; tests check
 * that the README's option table, {@code RedlockConfig}'s javadoc table, the builder, the getters, {@code toString},
 * the properties and the starter's properties and metadata agree with it, so an option cannot be added in one place
 * only. Internal, not API (see the package comment).
 *
 * <p>The declaration order is the order of the documentation tables and of the known-keys list. A password option
 * shares the table row and the builder setter of its store ({@link #documentedWith()}).
 */
public enum ConfigOption {
    NODES("nodes", List.class, null, "required", "1..64 distinct",
            "the independent Redis masters (redis:// or rediss:// URIs; comma-separated in properties)"),
    QUORUM("quorum", Integer.class, null, "N/2+1", "N/2 < quorum <= N",
            "how many nodes must grant"),
    DRIFT_FACTOR("driftFactor", Double.class, 0.01, "0.01", "[0, 0.5)",
            "the fraction of the TTL assumed lost to clock-rate drift"),
    FIXED_DRIFT("fixedDrift", Duration.class, Duration.ofMillis(2), "2ms", "[0, 60s]",
            "drift added on top of ttl * driftFactor"),
    NODE_TIMEOUT("nodeTimeout", Duration.class, Duration.ofMillis(100), "100ms", "(0, 60s]",
            "how long one node may take to answer before its vote counts as TIMEOUT"),
    RETRY_COUNT("retryCount", Integer.class, 3, "3", "[0, 10000]",
            "rounds tried after the first one fails"),
    RETRY_DELAY("retryDelay", Duration.class, Duration.ofMillis(200), "200ms", "[0, 60s]",
            "mean wait between rounds"),
    RETRY_JITTER("retryJitter", Duration.class, Duration.ofMillis(100), "100ms", "[0, 60s]",
            "half-width of the uniform jitter around retryDelay"),
    KEY_PREFIX("keyPrefix", String.class, "redlock:", "redlock:", "1..256 characters, no whitespace",
            "prefix of every key this library writes"),
    FENCING("fencing", Boolean.class, true, "true", "true / false",
            "whether acquires issue fencing tokens"),
    RESTART_QUARANTINE("restartQuarantine", Duration.class, Duration.ofSeconds(30), "30s", "[0, 24h]",
            "the amnesia guard: a node whose memory began less than this long ago refuses to grant; 0 = off"),
    PREFLIGHT("preflight", Preflight.class, Preflight.STRICT, "STRICT", "STRICT / WARN / OFF",
            "what Redlock.create does about node settings that break the guarantees"),
    PREVIOUS_NODES("previousNodes", List.class, List.of(), "none", "1..64 distinct",
            "during a change of the node list: the list being replaced"),
    PREVIOUS_QUORUM("previousQuorum", Integer.class, null, "P/2+1", "P/2 < previousQuorum <= P",
            "how many nodes of previousNodes must agree"),
    MAX_HOLD("maxHold", Duration.class, Duration.ZERO, "0 (no cap)", "0, or (nodeTimeout, 24h]",
            "how long auto-extension keeps a lease after its acquire; 0 = no cap"),
    TLS_TRUST_STORE("tlsTrustStore", Path.class, null, "the JDK's trust store",
            "a readable PKCS12 or JKS file that opens with the password",
            "the trust store of rediss:// connections"),
    TLS_TRUST_STORE_PASSWORD("tlsTrustStorePassword", String.class, null, "none", "the trust store's password",
            "the password of tlsTrustStore"),
    TLS_KEY_STORE("tlsKeyStore", Path.class, null, "none",
            "a readable PKCS12 or JKS file that opens with the password",
            "the client certificate and key for mutual TLS"),
    TLS_KEY_STORE_PASSWORD("tlsKeyStorePassword", String.class, null, "none", "the key store's password",
            "the password of tlsKeyStore (also the key's password)");

    /** The prefix of every property key. */
    public static final String PROPERTY_PREFIX = "redlock.";
    private static final Duration SMALL = Duration.ofSeconds(60);
    private static final Duration LONG = Duration.ofHours(24);

    private final String key;
    private final Class<?> type;
    private final Object defaultValue;
    private final String defaultText;
    private final String allowed;
    private final String description;

    ConfigOption(String key, Class<?> type, Object defaultValue, String defaultText, String allowed,
                 String description) {
        this.key = key;
        this.type = type;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.allowed = allowed;
        this.description = description;
    }

    /** The option's name: builder setter, getter, and the property key after {@code redlock.}. */
    public String key() { return key; }

    /** {@code redlock.<name>}. */
    public String property() { return PROPERTY_PREFIX + key; }

    /** The option's name in kebab-case, as the Spring Boot starter spells it ({@code node-timeout}). */
    public String kebab() {
        StringBuilder out = new StringBuilder();
        for (char c : key.toCharArray()) {
            if (Character.isUpperCase(c)) out.append('-').append(Character.toLowerCase(c));
            else out.append(c);
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }

    /** The Java type of the value (boxed for primitives; {@code List} of URIs for node lists). */
    public Class<?> type() { return type; }

    /** The default value, or {@code null} when it is derived (a quorum) or there is none (required, or unset). */
    public Object defaultValue() { return defaultValue; }

    /** The default as the documentation tables show it. */
    public String defaultText() { return defaultText; }

    /** The allowed range as the documentation tables begin it, and as the builder's messages name it. */
    public String allowed() { return allowed; }

    /** What the option is for, in one line. */
    public String description() { return description; }

    /** A secret never printed by {@code toString}. */
    public boolean secret() { return key.endsWith("Password"); }

    /** The option whose table row and builder setter this one shares (a password's store); else itself. */
    public ConfigOption documentedWith() {
        return this == TLS_TRUST_STORE_PASSWORD ? TLS_TRUST_STORE : this == TLS_KEY_STORE_PASSWORD ? TLS_KEY_STORE : this;
    }

    /** The option named {@code key}, if any. */
    public static Optional<ConfigOption> byKey(String key) {
        return Arrays.stream(values()).filter(o -> o.key.equals(key)).findFirst();
    }

    /** Every option's name, in declaration order. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(ConfigOption::key).toList();
    }

    /** {@code redlock.{nodes, quorum, ...}}: the known keys, for an error message. */
    public static String knownKeys() {
        return PROPERTY_PREFIX + Arrays.stream(values()).map(ConfigOption::key).collect(Collectors.joining(", ", "{", "}"));
    }

    /**
     * Checks a duration option against its range and throws {@link IllegalArgumentException} naming the option, the
     * range and the value ({@code nodeTimeout must be in (0, 60s], got 0ms}).
     */
    public void checkDuration(Duration d) {
        if (type != Duration.class) throw new IllegalStateException(key + " is not a duration");
        boolean zeroAllowed = allowed.startsWith("[") || allowed.startsWith("0, or");
        Duration max = allowed.contains("24h") ? LONG : SMALL;
        if (d == null) throw new IllegalArgumentException(key + " must not be null");
        boolean ok = (zeroAllowed ? !d.isNegative() : !d.isNegative() && !d.isZero()) && d.compareTo(max) <= 0;
        if (!ok) {
            throw new IllegalArgumentException(key + " must be in " + (zeroAllowed ? "[0" : "(0") + ", "
                    + Durations.human(max) + "], got " + Durations.human(d));
        }
    }

    /** Checks a number against a {@code [lo, hi]} or {@code [lo, hi)} range, naming the option and the range. */
    public void checkNumber(double v) {
        String[] bounds = allowed.substring(1, allowed.length() - 1).split(",");
        double lo = Double.parseDouble(bounds[0].trim());
        double hi = Double.parseDouble(bounds[1].trim());
        boolean hiOpen = allowed.endsWith(")");
        if (!(v >= lo && (hiOpen ? v < hi : v <= hi))) {
            String shown = type == Integer.class ? String.valueOf((long) v) : String.valueOf(v);
            throw new IllegalArgumentException(key + " must be in " + allowed + ", got " + shown);
        }
    }
}
