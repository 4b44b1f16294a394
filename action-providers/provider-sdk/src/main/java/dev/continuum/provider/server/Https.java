package dev.continuum.provider.server;

import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * HTTPS for a provider's server and trust in a private CA for its clients, from files as cert-manager writes a
 * {@code kubernetes.io/tls} Secret ({@code tls.crt}, {@code tls.key}, {@code ca.crt}; docs/operations.md "Encrypted
 * links"):
 * <ul>
 *   <li>{@value #CERT_ENV} and {@value #KEY_ENV}: the server listens with HTTPS only (PEM; the key PKCS#8 or PKCS#1);
 *   <li>{@value #CA_ENV}: the process's HTTPS clients (engine callbacks, planner, transfer provider, Keycloak) trust that
 *       CA as well as the JVM's own.
 * </ul>
 * Without them the server speaks plain HTTP and clients trust the JVM's CAs, as before.
 */
public record Https(Path certFile, Path keyFile) {

    public static final String CERT_ENV = "CONTINUUM_TLS_CERT_FILE";
    public static final String KEY_ENV = "CONTINUUM_TLS_KEY_FILE";
    public static final String CA_ENV = "CONTINUUM_TLS_CA_FILE";

    /** The server's certificate and key when both variables are set; none when neither is; else an error naming what is missing. */
    public static Optional<Https> fromEnvironment(Map<String, String> env) {
        String cert = blankToNull(env.get(CERT_ENV));
        String key = blankToNull(env.get(KEY_ENV));
        if (cert == null && key == null) {
            return Optional.empty();
        }
        if (cert == null || key == null) {
            throw new IllegalArgumentException("HTTPS needs both " + CERT_ENV + " and " + KEY_ENV + "; only "
                    + (cert != null ? CERT_ENV : KEY_ENV) + " is set");
        }
        return Optional.of(new Https(readable(cert, CERT_ENV, "certificate"), readable(key, KEY_ENV, "key")));
    }

    /** {@code options} serving HTTPS with this certificate and key (and nothing in plain text). */
    public HttpServerOptions apply(HttpServerOptions options) {
        return options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                .setCertPath(certFile.toString()).setKeyPath(keyFile.toString()));
    }

    /**
     * Makes this JVM's HTTPS clients trust the CA in {@value #CA_ENV} besides the JVM's own CAs: the default
     * {@link SSLContext} (JDK HTTP clients built after this call) and the default trust store (Vert.x clients). Nothing
     * when the variable is unset. Returns the CA file trusted, if any.
     */
    public static Optional<Path> trustCaFromEnvironment(Map<String, String> env) {
        return trustCa(env.get(CA_ENV), CA_ENV);
    }

    /** As {@link #trustCaFromEnvironment}, for a CA file from {@code setting} (e.g. a configuration key). */
    public static Optional<Path> trustCa(String caFile, String setting) {
        String ca = blankToNull(caFile);
        if (ca == null) {
            return Optional.empty();
        }
        Path file = readable(ca, setting, "CA certificate");
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            TrustManagerFactory jvm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jvm.init((KeyStore) null);
            int n = 0;
            for (var manager : jvm.getTrustManagers()) {
                if (manager instanceof javax.net.ssl.X509TrustManager x509) {
                    for (X509Certificate c : x509.getAcceptedIssuers()) {
                        trust.setCertificateEntry("jvm-" + n++, c);
                    }
                }
            }
            Collection<? extends Certificate> added;
            try (InputStream in = Files.newInputStream(file)) {
                added = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (added.isEmpty()) {
                throw new IllegalArgumentException(setting + ": " + file + " holds no PEM certificate");
            }
            for (Certificate c : added) {
                trust.setCertificateEntry("continuum-ca-" + n++, c);
            }
            // certificates only (public): the JVM's default trust store for clients that build their own context
            Path store = Files.createTempFile("continuum-trust-", ".p12");
            store.toFile().deleteOnExit();
            char[] password = "continuum".toCharArray();
            try (OutputStream out = Files.newOutputStream(store)) {
                trust.store(out, password);
            }
            System.setProperty("javax.net.ssl.trustStore", store.toString());
            System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
            System.setProperty("javax.net.ssl.trustStorePassword", new String(password));
            TrustManagerFactory merged = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            merged.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, merged.getTrustManagers(), null);
            SSLContext.setDefault(context);
            return Optional.of(file);
        } catch (IOException e) {
            throw new UncheckedIOException(setting + ": cannot read " + file, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(setting + ": cannot trust " + file + ": " + e.getMessage(), e);
        }
    }

    private static Path readable(String value, String setting, String what) {
        Path path = Path.of(value.trim());
        if (!Files.isReadable(path)) {
            throw new IllegalArgumentException(setting + ": " + what + " file " + path + " not found or not readable");
        }
        return path;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
