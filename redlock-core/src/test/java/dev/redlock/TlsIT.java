package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.Ports;
import dev.redlock.testkit.RedisNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code rediss://} against real redis-server processes with TLS: a configured trust store, the JDK's default one
 * (which does not trust a self-signed test certificate), mutual TLS with a client key store, and the validation of
 * the store options. Certificates are made at run time with the JDK's keytool; skipped when the redis-server binary
 * has no TLS support.
 */
class TlsIT {
    private static final String PASS = "store-pass";
    private static Path dir;
    private static Path trustStore;
    private static Path clientStore;
    private static final List<RedisNode> nodes = new ArrayList<>();
    private static RedisNode tls;
    private static RedisNode mutual;
    private static int tlsPort;
    private static int mutualPort;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("redlock-tls-");
        Path server = keyPair("server", "CN=localhost", "SAN=ip:127.0.0.1,dns:localhost");
        Path client = keyPair("client", "CN=redlock-client", null);
        Path serverCrt = pem(server, "server", dir.resolve("server.crt"), dir.resolve("server.key"));
        Path clientCrt = pem(client, "client", dir.resolve("client.crt"), dir.resolve("client.key"));
        trustStore = dir.resolve("trust.p12");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", open(server).getCertificate("server"));
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            trust.store(out, PASS.toCharArray());
        }
        clientStore = client;
        tlsPort = Ports.free();
        mutualPort = Ports.free();
        try {
            tls = RedisNode.start(false, "--tls-port", Integer.toString(tlsPort), "--tls-cert-file", serverCrt.toString(),
                    "--tls-key-file", dir.resolve("server.key").toString(), "--tls-ca-cert-file", clientCrt.toString(),
                    "--tls-auth-clients", "no");
            nodes.add(tls);
            mutual = RedisNode.start(false, "--tls-port", Integer.toString(mutualPort), "--tls-cert-file",
                    serverCrt.toString(), "--tls-key-file", dir.resolve("server.key").toString(),
                    "--tls-ca-cert-file", clientCrt.toString(), "--tls-auth-clients", "yes");
            nodes.add(mutual);
        } catch (RuntimeException e) {
            Assumptions.abort("redis-server without TLS support: " + e.getMessage());
        }
    }

    @AfterAll
    static void stop() {
        nodes.forEach(RedisNode::close);
    }

    private static RedlockConfig.Builder config(int port) {
        return RedlockConfig.builder().nodes("rediss://127.0.0.1:" + port).restartQuarantine(Duration.ZERO)
                .nodeTimeout(Duration.ofMillis(500)).retryCount(0);
    }

    @Test
    void rediss_withTheConfiguredTrustStore() {
        try (Redlock redlock = Redlock.create(config(tlsPort).tlsTrustStore(trustStore, PASS).build());
             Lease lease = redlock.acquire("tls", Duration.ofSeconds(5))) {
            assertTrue(lease.isValid());
            assertFalse(tls.command("GET", "redlock:tls").isEmpty(), "the lock was written over TLS");
        }
    }

    @Test
    void theJdkTrustStoreDoesNotTrustAnUnknownCertificate() {
        try (Redlock redlock = Redlock.create(config(tlsPort).build())) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire("untrusted", Duration.ofSeconds(5)));
            NodeOutcome o = e.outcomes().get(0);
            assertEquals(NodeOutcome.Kind.ERROR, o.kind(), e.getMessage());
            assertTrue(o.detail().contains("certif") || o.detail().contains("PKIX"), o.detail());
        }
    }

    @Test
    void mutualTlsNeedsTheClientKeyStore() {
        try (Redlock without = Redlock.create(config(mutualPort).tlsTrustStore(trustStore, PASS).build())) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> without.acquire("mtls", Duration.ofSeconds(5)));
            assertEquals(NodeOutcome.Kind.ERROR, e.outcomes().get(0).kind(), e.getMessage());
        }
        try (Redlock with = Redlock.create(config(mutualPort).tlsTrustStore(trustStore, PASS)
                .tlsKeyStore(clientStore, PASS).build());
             Lease lease = with.acquire("mtls", Duration.ofSeconds(5))) {
            assertTrue(lease.isValid());
        }
    }

    @Test
    void storeOptionsAreValidatedByName() throws IOException {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> config(tlsPort).tlsTrustStore(dir.resolve("nope.p12"), PASS).build());
        assertTrue(missing.getMessage().startsWith("tlsTrustStore must be a readable PKCS12 or JKS file"), missing.getMessage());
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> config(tlsPort).tlsKeyStore(clientStore, "wrong-" + PASS).build());
        assertTrue(wrong.getMessage().startsWith("tlsKeyStore must be a PKCS12 or JKS file that opens with tlsKeyStorePassword"),
                wrong.getMessage());
        assertFalse(wrong.getMessage().contains(PASS), "the message shows a password");
        Path garbage = Files.writeString(dir.resolve("garbage.p12"), "not a key store");
        assertThrows(IllegalArgumentException.class, () -> config(tlsPort).tlsTrustStore(garbage, PASS).build());
        Properties p = new Properties();
        p.setProperty("redlock.nodes", "rediss://127.0.0.1:" + tlsPort);
        p.setProperty("redlock.tlsTrustStore", trustStore.toString());
        p.setProperty("redlock.tlsTrustStorePassword", PASS);
        p.setProperty("redlock.tlsKeyStorePassword", PASS);
        IllegalArgumentException orphan = assertThrows(IllegalArgumentException.class, () -> RedlockConfig.fromProperties(p));
        assertEquals("tlsKeyStorePassword is set but tlsKeyStore is not", orphan.getMessage());
        p.setProperty("redlock.tlsKeyStore", clientStore.toString());
        RedlockConfig cfg = RedlockConfig.fromProperties(p);
        assertEquals(trustStore, cfg.tlsTrustStore().orElseThrow());
        assertEquals(clientStore, cfg.tlsKeyStore().orElseThrow());
        assertFalse(cfg.toString().contains(PASS));
    }

    /** keytool -genkeypair into a PKCS12 file; returns the file. */
    private static Path keyPair(String alias, String dname, String ext) throws Exception {
        Path store = dir.resolve(alias + ".p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> cmd = new ArrayList<>(List.of(keytool.toString(), "-genkeypair", "-alias", alias, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", dname, "-validity", "2", "-storetype", "PKCS12", "-keystore",
                store.toString(), "-storepass", PASS, "-keypass", PASS));
        if (ext != null) {
            cmd.add("-ext");
            cmd.add(ext);
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("keytool: " + out);
        return store;
    }

    private static KeyStore open(Path store) throws Exception {
        return KeyStore.getInstance(store.toFile(), PASS.toCharArray());
    }

    /** The certificate and the PKCS#8 private key of {@code alias} as PEM files (what redis-server reads). */
    private static Path pem(Path store, String alias, Path crt, Path key) throws Exception {
        KeyStore ks = open(store);
        Certificate cert = ks.getCertificate(alias);
        Key k = ks.getKey(alias, PASS.toCharArray());
        Base64.Encoder b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        Files.writeString(crt, "-----BEGIN CERTIFICATE-----\n" + b64.encodeToString(cert.getEncoded())
                + "\n-----END CERTIFICATE-----\n");
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n" + b64.encodeToString(k.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        return crt;
    }

}
