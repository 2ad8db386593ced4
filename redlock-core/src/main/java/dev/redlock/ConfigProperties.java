package dev.redlock;

import dev.redlock.internal.Durations;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
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
            String value = props.getProperty(key).trim();
            switch (name) {
                case "nodes" -> b.nodes(Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
                case "quorum" -> b.quorum(parseInt(key, value));
                case "driftFactor" -> b.driftFactor(parseDouble(key, value));
                case "fixedDrift" -> b.fixedDrift(parseDuration(key, value));
                case "nodeTimeout" -> b.nodeTimeout(parseDuration(key, value));
                case "retryCount" -> b.retryCount(parseInt(key, value));
                case "retryDelay" -> b.retryDelay(parseDuration(key, value));
                case "retryJitter" -> b.retryJitter(parseDuration(key, value));
                case "keyPrefix" -> b.keyPrefix(value);
                case "fencing" -> b.fencing(parseBoolean(key, value));
                case "restartQuarantine" -> b.restartQuarantine(parseDuration(key, value));
                case "preflight" -> b.preflight(parsePreflight(key, value));
                case "previousNodes" -> b.previousNodes(Arrays.stream(value.split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList());
                case "previousQuorum" -> b.previousQuorum(parseInt(key, value));
                case "tlsTrustStore" -> b.tlsTrustStorePath(Path.of(value));
                case "tlsTrustStorePassword" -> b.tlsTrustStorePassword(value);
                case "tlsKeyStore" -> b.tlsKeyStorePath(Path.of(value));
                case "tlsKeyStorePassword" -> b.tlsKeyStorePassword(value);
                case "maxHold" -> b.maxHold(parseDuration(key, value));
                default -> throw new IllegalArgumentException("unknown property " + key + "; known: redlock.{nodes, quorum, "
                        + "driftFactor, fixedDrift, nodeTimeout, retryCount, retryDelay, retryJitter, keyPrefix, fencing, "
                        + "restartQuarantine, preflight, previousNodes, previousQuorum, maxHold, tlsTrustStore, "
                        + "tlsTrustStorePassword, tlsKeyStore, tlsKeyStorePassword}");
            }
        }
        if (!props.containsKey(RedlockConfig.PROPERTY_PREFIX + "nodes")) {
            throw new IllegalArgumentException("property redlock.nodes is required (comma-separated redis:// URIs)");
        }
        return b.build();
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
