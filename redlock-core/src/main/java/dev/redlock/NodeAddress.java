package dev.redlock;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * One node's parsed address. {@link #toString()} and {@link #redacted()} never show the password;
 * {@link #address()} is what Redisson gets (no credentials in it), credentials go separately.
 */
final class NodeAddress {
    private final boolean tls;
    private final String host;
    private final int port;
    private final int database;
    private final String username;
    private final String password;

    private NodeAddress(boolean tls, String host, int port, int database, String username, String password) {
        this.tls = tls;
        this.host = host;
        this.port = port;
        this.database = database;
        this.username = username;
        this.password = password;
    }

    /** Parses {@code redis[s]://[user[:password]@]host[:port][/db]}; the message never echoes the password. */
    static NodeAddress parse(String raw, int index) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException("nodes[" + index + "] must be a redis:// or rediss:// URI, got an empty value");
        }
        URI uri;
        try {
            uri = new URI(raw.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("nodes[" + index + "] is not a valid URI (expected redis://host:port): "
                    + redactRaw(raw));
        }
        String scheme = uri.getScheme();
        if (!"redis".equalsIgnoreCase(scheme) && !"rediss".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("nodes[" + index + "] must use scheme redis:// or rediss://, got "
                    + redactRaw(raw));
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("nodes[" + index + "] has no host: " + redactRaw(raw));
        }
        int port = uri.getPort() == -1 ? 6379 : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("nodes[" + index + "] port must be in [1, 65535], got " + port);
        }
        int db = 0;
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            try {
                db = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("nodes[" + index + "] database must be a number in [0, 15], got '"
                        + path.substring(1) + "'");
            }
            if (db < 0 || db > 15) {
                throw new IllegalArgumentException("nodes[" + index + "] database must be in [0, 15], got " + db);
            }
        }
        String user = null;
        String pass = null;
        String info = uri.getRawUserInfo();
        if (info != null && !info.isEmpty()) {
            int colon = info.indexOf(':');
            if (colon < 0) {
                pass = decode(info, index);   // redis://secret@host: password only (Redis AUTH <password>)
            } else {
                user = colon == 0 ? null : decode(info.substring(0, colon), index);
                pass = decode(info.substring(colon + 1), index);
            }
        }
        return new NodeAddress("rediss".equalsIgnoreCase(scheme), host, port, db, user, pass);
    }

    /**
     * RFC 3986 percent-decoding of user info ({@code %XX} = one UTF-8 byte; a '+' stays a '+': form decoding, which
     * turns it into a space, is for query strings, not for URIs' user info).
     */
    static String decode(String s, int index) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
            if (lo < 0) throw new IllegalArgumentException("nodes[" + index + "] user info has a malformed %-escape");
            out.write(hi * 16 + lo);
            i += 2;
        }
        return out.toString(StandardCharsets.UTF_8);
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
        java.util.Set<java.net.InetAddress> mine = resolve(host);
        for (java.net.InetAddress a : resolve(other.host)) if (mine.contains(a)) return true;
        return false;
    }

    private static java.util.Set<java.net.InetAddress> resolve(String host) {
        try {
            return java.util.Set.of(java.net.InetAddress.getAllByName(host));
        } catch (java.net.UnknownHostException | SecurityException e) {
            return java.util.Set.of();
        } catch (IllegalArgumentException e) {   // duplicate addresses in the answer
            return new java.util.HashSet<>(java.util.Arrays.asList(resolveArray(host)));
        }
    }

    private static java.net.InetAddress[] resolveArray(String host) {
        try {
            return java.net.InetAddress.getAllByName(host);
        } catch (java.net.UnknownHostException e) {
            return new java.net.InetAddress[0];
        }
    }

    /** Removes anything between "//" and "@" from a raw string, for error messages about unparseable input. */
    static String redactRaw(String raw) {
        int start = raw.indexOf("//");
        int at = raw.lastIndexOf('@');
        if (start >= 0 && at > start) return raw.substring(0, start + 2) + "***@" + raw.substring(at + 1);
        return raw;
    }

    String address() {
        return (tls ? "rediss://" : "redis://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    String host() { return host; }

    int port() { return port; }

    int database() { return database; }

    String username() { return username; }

    String password() { return password; }

    boolean tls() { return tls; }

    String redacted() {
        String auth = "";
        if (username != null) auth = username + (password != null ? ":***" : "") + "@";
        else if (password != null) auth = "***@";
        String base = address();
        int split = base.indexOf("//") + 2;
        return base.substring(0, split) + auth + base.substring(split) + (database != 0 ? "/" + database : "");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeAddress a && a.tls == tls && a.host.equalsIgnoreCase(host) && a.port == port
                && a.database == database;
    }

    @Override
    public int hashCode() {
        return host.toLowerCase(java.util.Locale.ROOT).hashCode() * 31 + port * 17 + database;
    }

    @Override
    public String toString() {
        return redacted();
    }
}
