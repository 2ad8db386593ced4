package dev.redlock;

import dev.redlock.internal.ConfigOption;
import dev.redlock.internal.Durations;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/** {@code redlock.*} properties to a {@link RedlockConfig}: every key known, every value parsed naming its key. */
final class ConfigProperties {
    private ConfigProperties() {
    }

    static RedlockConfig parse(Properties props) {
        Objects.requireNonNull(props, "props");
        RedlockConfig.Builder b = RedlockConfig.builder();
        for (String key : props.stringPropertyNames()) {
            if (!key.startsWith(RedlockConfig.PROPERTY_PREFIX)) continue;
            String name = key.substring(RedlockConfig.PROPERTY_PREFIX.length());
            ConfigOption option = ConfigOption.byKey(name).orElseThrow(() -> new IllegalArgumentException(
                    "unknown property " + key + "; known: " + ConfigOption.knownKeys()));
            apply(b, option, key, props.getProperty(key).trim());
        }
        if (!props.containsKey(RedlockConfig.PROPERTY_PREFIX + "nodes")) {
            throw new IllegalArgumentException("property redlock.nodes is required (comma-separated redis:// URIs)");
        }
        return b.build();
    }

    /** One key to the builder; a switch expression, so an option the catalogue adds does not compile unwired. */
    private static RedlockConfig.Builder apply(RedlockConfig.Builder b, ConfigOption option, String key, String value) {
        return switch (option) {
            case NODES -> b.nodes(list(value));
            case QUORUM -> b.quorum(parseInt(key, value));
            case DRIFT_FACTOR -> b.driftFactor(parseDouble(key, value));
            case FIXED_DRIFT -> b.fixedDrift(parseDuration(key, value));
            case NODE_TIMEOUT -> b.nodeTimeout(parseDuration(key, value));
            case RETRY_COUNT -> b.retryCount(parseInt(key, value));
            case RETRY_DELAY -> b.retryDelay(parseDuration(key, value));
            case RETRY_JITTER -> b.retryJitter(parseDuration(key, value));
            case KEY_PREFIX -> b.keyPrefix(value);
            case FENCING -> b.fencing(parseBoolean(key, value));
            case RESTART_QUARANTINE -> b.restartQuarantine(parseDuration(key, value));
            case PREFLIGHT -> b.preflight(parsePreflight(key, value));
            case PREVIOUS_NODES -> b.previousNodes(list(value));
            case PREVIOUS_QUORUM -> b.previousQuorum(parseInt(key, value));
            case MAX_HOLD -> b.maxHold(parseDuration(key, value));
            case TLS_TRUST_STORE -> b.tlsTrustStorePath(Path.of(value));
            case TLS_TRUST_STORE_PASSWORD -> b.tlsTrustStorePassword(value);
            case TLS_KEY_STORE -> b.tlsKeyStorePath(Path.of(value));
            case TLS_KEY_STORE_PASSWORD -> b.tlsKeyStorePassword(value);
        };
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    static RedlockConfig load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read redlock config " + file, e);
        }
        return parse(p);
    }

    private static int parseInt(String key, String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'");
        }
    }

    private static double parseDouble(String key, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a decimal number, got '" + v + "'");
        }
    }

    private static Preflight parsePreflight(String key, String v) {
        try {
            return Preflight.valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be STRICT, WARN or OFF, got '" + v + "'");
        }
    }

    private static boolean parseBoolean(String key, String v) {
        if (v.equalsIgnoreCase("true")) return true;
        if (v.equalsIgnoreCase("false")) return false;
        throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
    }

    static Duration parseDuration(String key, String v) {
        return Durations.parse(key, v);
    }
}
