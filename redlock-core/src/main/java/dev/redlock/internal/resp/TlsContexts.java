package dev.redlock.internal.resp;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/** The client TLS context of an endpoint: JDK provider, the configured trust store or the JDK's, optional key store. */
final class TlsContexts {
    private TlsContexts() {}

    static SslContext forEndpoint(RespEndpoint e) {
        try {
            SslContextBuilder b = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
            if (e.trustStore() != null) {
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(load(e.trustStore(), e.trustStorePassword()));
                b.trustManager(tmf);
            }
            if (e.keyStore() != null) {
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(load(e.keyStore(), e.keyStorePassword()), chars(e.keyStorePassword()));
                b.keyManager(kmf);
            }
            return b.build();
        } catch (GeneralSecurityException | IOException ex) {
            throw new IllegalArgumentException("cannot set up TLS for " + e.name() + ": " + ex.getMessage(), ex);
        }
    }

    /** Loads a PKCS12 or JKS store (the type is detected), as {@code RedlockConfig} validates it. */
    static KeyStore load(Path file, String password) throws GeneralSecurityException, IOException {
        return KeyStore.getInstance(file.toFile(), chars(password));
    }

    private static char[] chars(String password) {
        return password == null ? new char[0] : password.toCharArray();
    }
}
