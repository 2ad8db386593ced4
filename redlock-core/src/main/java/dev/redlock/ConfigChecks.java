package dev.redlock;

import dev.redlock.internal.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The checks {@link RedlockConfig.Builder#build()} runs that need no builder state: each names its field. */
final class ConfigChecks {
    private ConfigChecks() {
    }

    static boolean sameSet(List<NodeAddress> a, List<NodeAddress> b) {
        if (a.size() != b.size()) return false;
        for (NodeAddress x : a) if (b.stream().noneMatch(x::sameEndpoint)) return false;
        return true;
    }

    /** The smallest whole-millisecond TTL that leaves validity after {@code ttl * driftFactor + fixedDrift}. */
    static Duration smallestTtl(double driftFactor, Duration fixedDrift) {
        long ms = 1;
        while ((long) (ms * 1_000_000L * driftFactor) + fixedDrift.toNanos() >= ms * 1_000_000L) ms++;
        return Duration.ofMillis(ms);
    }

    static List<NodeAddress> parseNodes(List<String> raw, String field) {
        if (raw.isEmpty() || raw.size() > 64) {
            throw new IllegalArgumentException(field + " must list 1..64 redis:// URIs, got " + raw.size());
        }
        List<NodeAddress> out = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            NodeAddress a = NodeAddress.parse(raw.get(i), field, i);
            for (int j = 0; j < out.size(); j++) {
                if (a.name() != null && a.name().equals(out.get(j).name())) {
                    throw new IllegalArgumentException(field + " must be distinct, but " + field + "[" + i + "] "
                            + a.redacted() + " has the name of " + field + "[" + j + "] " + out.get(j).redacted());
                }
                if (out.get(j).sameEndpoint(a)) {
                    throw new IllegalArgumentException(field + " must be distinct, but " + field + "[" + i + "] "
                            + a.redacted() + " is the same server as " + field + "[" + j + "] " + out.get(j).redacted()
                            + " (same port and database, same host or address)");
                }
            }
            out.add(a);
        }
        return out;
    }

    /** A store must be a readable PKCS12 or JKS file that opens with its password; a password needs a store. */
    static void checkStore(String field, Path store, String password) {
        if (store == null) {
            if (password != null) {
                throw new IllegalArgumentException(field + "Password is set but " + field + " is not");
            }
            return;
        }
        if (!Files.isRegularFile(store) || !Files.isReadable(store)) {
            throw new IllegalArgumentException(field + " must be a readable PKCS12 or JKS file, got " + store);
        }
        try {
            KeyStore.getInstance(store.toFile(), password == null ? new char[0] : password.toCharArray());
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException(field + " must be a PKCS12 or JKS file that opens with " + field
                    + "Password, got " + store + " (" + e.getMessage() + ")");
        }
    }
}
