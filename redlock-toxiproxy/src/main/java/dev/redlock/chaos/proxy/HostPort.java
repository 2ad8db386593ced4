package dev.redlock.chaos.proxy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * A {@code host:port} string as the API uses it ({@code 127.0.0.1:8474}, {@code localhost:6379}, {@code [::1]:80},
 * {@code :0} for every interface). Parsing never resolves names; {@link #resolve()} does.
 */
record HostPort(String host, int port) {

    /** Parses {@code host:port}; empty if the text is not of that form or the port is out of range. */
    static Optional<HostPort> parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            return Optional.empty(); // a bare IPv6 literal must be bracketed
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            return port < 0 || port > 65_535 ? Optional.empty() : Optional.of(new HostPort(host, port));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Formats a bound address the way the real server reports it: {@code 127.0.0.1:1234}, {@code [::1]:1234}. */
    static String format(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        String host = ip == null ? address.getHostString() : ip.getHostAddress();
        if (ip instanceof Inet6Address) {
            int scope = host.indexOf('%');
            host = "[" + (scope < 0 ? host : host.substring(0, scope)) + "]";
        }
        return host + ":" + address.getPort();
    }

    /** Resolves the host (an empty host means every interface). May block on a name lookup. */
    InetSocketAddress resolve() throws UnknownHostException {
        if (host.isEmpty()) {
            return new InetSocketAddress(port);
        }
        return new InetSocketAddress(InetAddress.getByName(host), port);
    }

    /** An unresolved address for a dial; the transport resolves it when it connects. */
    InetSocketAddress unresolved() {
        return InetSocketAddress.createUnresolved(host.isEmpty() ? "127.0.0.1" : host, port);
    }

    /** True when both name the same endpoint, comparing resolved addresses when the names differ. */
    boolean sameEndpoint(HostPort other) {
        if (port != other.port || port == 0) {
            return false;
        }
        if (host.toLowerCase(Locale.ROOT).equals(other.host.toLowerCase(Locale.ROOT))) {
            return true;
        }
        try {
            return resolve().equals(other.resolve());
        } catch (UnknownHostException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
