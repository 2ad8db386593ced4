package dev.redlock;

import dev.redlock.internal.RedisUri;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * One node's parsed address. {@link #toString()} and {@link #redacted()} never show the password;
 * {@link #address()} is what Redisson gets (no credentials in it), credentials go separately.
 */
final class NodeAddress {
    private final RedisUri uri;
    private final boolean tls;
    private final String host;
    private final int port;
    private final int database;

    private NodeAddress(RedisUri uri) {
        this.uri = uri;
        this.tls = uri.tls();
        this.host = uri.host();
        this.port = uri.port();
        this.database = uri.database();
    }

    /** The parsed URI. */
    RedisUri uri() {
        return uri;
    }

    /**
     * Parses {@code redis[s]://[user[:password]@]host[:port][/db]}, element {@code index} of the list {@code field};
     * the message never echoes the password.
     */
    static NodeAddress parse(String raw, String field, int index) {
        return new NodeAddress(RedisUri.parse(raw, field + "[" + index + "]"));
    }

    /**
     * Whether {@code other} reaches the same Redis database as this address: same port, database and scheme, and
     * the same host name or (plain {@code redis://} only) host names that resolve to a common address, such as
     * {@code localhost} and {@code 127.0.0.1}. TLS hosts are compared by name only: a TLS endpoint may route by SNI,
     * so two names on one address can be two servers. A name that does not resolve compares by name.
     */
    boolean sameEndpoint(NodeAddress other) {
        if (other.port != port || other.database != database || other.tls != tls) return false;
        if (other.host.equalsIgnoreCase(host)) return true;
        if (tls) return false;
        Set<InetAddress> mine = resolve(host);
        for (InetAddress a : resolve(other.host)) if (mine.contains(a)) return true;
        return false;
    }

    private static Set<InetAddress> resolve(String host) {
        try {
            return Set.of(InetAddress.getAllByName(host));
        } catch (UnknownHostException | SecurityException e) {
            return Set.of();
        } catch (IllegalArgumentException e) {   // duplicate addresses in the answer
            return new HashSet<>(Arrays.asList(resolveArray(host)));
        }
    }

    private static InetAddress[] resolveArray(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return new InetAddress[0];
        }
    }

    String address() {
        return uri.address();
    }

    String host() { return host; }

    int port() { return port; }

    int database() { return database; }

    String username() { return uri.username(); }

    /** The node's name ({@code ?name=}), or null. */
    String name() { return uri.name(); }

    String password() { return uri.password(); }

    boolean tls() { return tls; }

    String redacted() {
        return uri.redacted();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeAddress a && a.tls == tls && a.host.equalsIgnoreCase(host) && a.port == port
                && a.database == database;
    }

    @Override
    public int hashCode() {
        return host.toLowerCase(Locale.ROOT).hashCode() * 31 + port * 17 + database;
    }

    @Override
    public String toString() {
        return redacted();
    }
}
