package dev.redlock.internal;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Internal, not API: the one parser of node URIs, {@code redis[s]://[user[:password]@]host[:port][/db][?name=id]}, and the one
 * way a URI or a message is shown without its password. Used by the library's configuration and by this project's
 * tools, so a URI means the same to both. Immutable. Anything here may change or disappear in any release;
 * applications must not use it.
 *
 * @param tls      {@code rediss://}
 * @param host     without IPv6 brackets
 * @param port     6379 when the URI has none
 * @param database 0 when the URI has none, else in [0, 15]
 * @param username null when the URI has none (a password alone is {@code AUTH <password>})
 * @param password null when the URI has none; percent-decoded (RFC 3986; a '+' stays a '+')
 * @param name     the node's name ({@code ?name=}), null when the URI has none: what identifies the node in a node
 *                 list when clients reach it by different addresses (proxies, NAT)
 */
public record RedisUri(boolean tls, String host, int port, int database, String username, String password,
                       String name) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    /**
     * Parses {@code raw}; messages start with {@code field} and never echo the password.
     *
     * @throws IllegalArgumentException naming {@code field} when {@code raw} is not such a URI
     */
    public static RedisUri parse(String raw, String field) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException(field + " must be a redis:// or rediss:// URI, got an empty value");
        }
        URI uri;
        try {
            uri = new URI(raw.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(field + " is not a valid URI (expected redis://host:port): " + redact(raw));
        }
        String scheme = uri.getScheme();
        if (!"redis".equalsIgnoreCase(scheme) && !"rediss".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException(field + " must use scheme redis:// or rediss://, got " + redact(raw));
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException(field + " has no host: " + redact(raw));
        }
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        int port = uri.getPort() == -1 ? 6379 : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(field + " port must be in [1, 65535], got " + port);
        }
        int db = 0;
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            try {
                db = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(field + " database must be a number in [0, 15], got '"
                        + path.substring(1) + "'");
            }
            if (db < 0 || db > 15) {
                throw new IllegalArgumentException(field + " database must be in [0, 15], got " + db);
            }
        }
        String user = null;
        String pass = null;
        String info = uri.getRawUserInfo();
        if (info != null && !info.isEmpty()) {
            int colon = info.indexOf(':');
            if (colon < 0) {
                pass = decode(info, field);   // redis://secret@host: password only (Redis AUTH <password>)
            } else {
                user = colon == 0 ? null : decode(info.substring(0, colon), field);
                pass = decode(info.substring(colon + 1), field);
            }
        }
        String name = null;
        String query = uri.getRawQuery();
        if (query != null && !query.isEmpty()) {
            if (!query.startsWith("name=") || query.contains("&")) {
                throw new IllegalArgumentException(field + " has an unknown query '" + query + "': the one parameter "
                        + "is name=<node name>");
            }
            name = query.substring("name=".length());
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(field + " name must be 1..64 characters of [A-Za-z0-9._:-], got '"
                        + name + "'");
            }
        }
        return new RedisUri("rediss".equalsIgnoreCase(scheme), host, port, db, user, pass, name);
    }

    /**
     * What identifies this node in a node list (the nodes' membership records): its name ({@code ?name=}) when it
     * has one, else {@code host:port/db}, the host in lower case (IPv6 in brackets).
     */
    public String listKey() {
        if (name != null) return "name:" + name;
        return ((host.contains(":") ? "[" + host + "]" : host) + ":" + port).toLowerCase(Locale.ROOT) + "/" + database;
    }

    /**
     * The id of a node list, as the nodes record it: the first 12 hex digits of the SHA-1 of its sorted
     * {@linkplain #listKey list keys}, so the order of the list does not matter, its entries do.
     */
    public static String listId(List<RedisUri> nodes) {
        String canonical = nodes.stream().map(RedisUri::listKey).sorted().reduce((x, y) -> x + "," + y).orElse("");
        return Scripts.sha1(canonical).substring(0, 12);
    }

    /** {@code redis[s]://host:port}: no credentials, no database (IPv6 hosts in brackets). */
    public String address() {
        return (tls ? "rediss://" : "redis://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * The URI with the password replaced by {@code ***} (the user name kept), the database when not 0 and the name
     * when there is one.
     */
    public String redacted() {
        String auth = "";
        if (username != null) auth = username + (password != null ? ":***" : "") + "@";
        else if (password != null) auth = "***@";
        String base = address();
        int split = base.indexOf("//") + 2;
        return base.substring(0, split) + auth + base.substring(split) + (database != 0 ? "/" + database : "")
                + (name != null ? "?name=" + name : "");
    }

    /** {@link #redacted()}: a record's generated form would show the password. */
    @Override
    public String toString() {
        return redacted();
    }

    /**
     * A raw URI string, parseable or not, with whatever stands between {@code //} and its last {@code @} replaced:
     * {@code redis://u:secret@h} to {@code redis://u:***@h}, {@code redis://secret@h} to {@code redis://***@h}.
     */
    public static String redact(String raw) {
        int start = raw.indexOf("//");
        int at = raw.lastIndexOf('@');
        if (start < 0 || at <= start) return raw;
        String info = raw.substring(start + 2, at);
        int colon = info.indexOf(':');
        String kept = colon < 0 ? "" : info.substring(0, colon + 1);
        return raw.substring(0, start + 2) + kept + "***@" + raw.substring(at + 1);
    }

    /** Free text (an error message) with the user info of any URI in it replaced by {@code ***}. */
    public static String redactText(String text) {
        return USER_INFO_IN_TEXT.matcher(text).replaceAll("//***@");
    }

    private static final Pattern USER_INFO_IN_TEXT = Pattern.compile("//[^/@\\s]*@");

    /**
     * RFC 3986 percent-decoding of user info ({@code %XX} = one UTF-8 byte; a '+' stays a '+': form decoding, which
     * turns it into a space, is for query strings, not for URIs' user info).
     */
    private static String decode(String s, String field) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
            if (lo < 0) throw new IllegalArgumentException(field + " user info has a malformed %-escape");
            out.write(hi * 16 + lo);
            i += 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
