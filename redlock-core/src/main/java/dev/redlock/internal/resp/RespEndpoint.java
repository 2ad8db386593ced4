package dev.redlock.internal.resp;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how to reach one Redis node: host, port, TLS (trust store and key store, JDK defaults when absent),
 * credentials, database, and the transport's time limits. Immutable; {@link #toString()} is the redacted name,
 * never a password. Built by {@link #builder(String, int)}.
 */
public final class RespEndpoint {
    private final String name;
    private final String host;
    private final int port;
    private final boolean tls;
    private final Path trustStore;
    private final String trustStorePassword;
    private final Path keyStore;
    private final String keyStorePassword;
    private final String username;
    private final String password;
    private final int database;
    private final Duration connectTimeout;
    private final Duration replyWindow;

    private RespEndpoint(Builder b) {
        this.name = b.name != null ? b.name : (b.tls ? "rediss://" : "redis://") + b.host + ":" + b.port;
        this.host = b.host;
        this.port = b.port;
        this.tls = b.tls;
        this.trustStore = b.trustStore;
        this.trustStorePassword = b.trustStorePassword;
        this.keyStore = b.keyStore;
        this.keyStorePassword = b.keyStorePassword;
        this.username = b.username;
        this.password = b.password;
        this.database = b.database;
        this.connectTimeout = b.connectTimeout;
        this.replyWindow = b.replyWindow;
    }

    public static Builder builder(String host, int port) {
        return new Builder(host, port);
    }

    /** The node's address for messages: no password. */
    public String name() { return name; }

    public String host() { return host; }

    public int port() { return port; }

    public boolean tls() { return tls; }

    Path trustStore() { return trustStore; }

    String trustStorePassword() { return trustStorePassword; }

    Path keyStore() { return keyStore; }

    String keyStorePassword() { return keyStorePassword; }

    String username() { return username; }

    String password() { return password; }

    public int database() { return database; }

    /** Bound on TCP connect, TLS handshake and the connection handshake, each attempt. */
    public Duration connectTimeout() { return connectTimeout; }

    /**
     * A connection with commands outstanding and no reply for this long is closed and reconnected, failing what was
     * pending with {@link RedisReplyTimeoutException}. Until then a late reply is still delivered.
     */
    public Duration replyWindow() { return replyWindow; }

    @Override
    public String toString() {
        return name;
    }

    /** Mutable builder; {@link #build()} checks the values. Not thread-safe. */
    public static final class Builder {
        private String name;
        private final String host;
        private final int port;
        private boolean tls;
        private Path trustStore;
        private String trustStorePassword;
        private Path keyStore;
        private String keyStorePassword;
        private String username;
        private String password;
        private int database;
        private Duration connectTimeout = Duration.ofSeconds(1);
        private Duration replyWindow = Duration.ofSeconds(2);

        private Builder(String host, int port) {
            this.host = Objects.requireNonNull(host, "host");
            this.port = port;
        }

        /** The name shown in messages (must not contain a password); default {@code redis[s]://host:port}. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** TLS ({@code rediss://}); the server name is verified against {@code host}. */
        public Builder tls(boolean tls) {
            this.tls = tls;
            return this;
        }

        /** Certificates to trust (PKCS12 or JKS); null = the JDK's default trust store. */
        public Builder trustStore(Path store, String password) {
            this.trustStore = store;
            this.trustStorePassword = password;
            return this;
        }

        /** The client's own certificate and key for mutual TLS (PKCS12 or JKS); null = none. */
        public Builder keyStore(Path store, String password) {
            this.keyStore = store;
            this.keyStorePassword = password;
            return this;
        }

        /** {@code AUTH username password} (ACL), or {@code AUTH password} when username is null; none when both null. */
        public Builder credentials(String username, String password) {
            this.username = username;
            this.password = password;
            return this;
        }

        /** {@code SELECT database} on every connection when not 0. */
        public Builder database(int database) {
            this.database = database;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder replyWindow(Duration replyWindow) {
            this.replyWindow = replyWindow;
            return this;
        }

        public RespEndpoint build() {
            if (port < 1 || port > 65535) throw new IllegalArgumentException("port must be in [1, 65535], got " + port);
            if (database < 0) throw new IllegalArgumentException("database must be >= 0, got " + database);
            if (username != null && password == null) {
                throw new IllegalArgumentException("a username needs a password (AUTH username password)");
            }
            positive("connectTimeout", connectTimeout);
            positive("replyWindow", replyWindow);
            return new RespEndpoint(this);
        }

        private static void positive(String field, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(field + " must be > 0, got " + d);
            }
        }
    }
}
