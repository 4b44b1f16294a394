package dev.continuum.edge.broker.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made in the test, and server certificates it signs, written as cert-manager writes a
 * {@code kubernetes.io/tls} Secret's files: {@code ca.crt}, {@code tls.crt}, {@code tls.key} (RSA, PKCS#1 — cert-manager's
 * default encoding).
 */
public final class TestCa {

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private final String name;
    private final KeyPair keys;
    private final X509Certificate certificate;

    private TestCa(String name, KeyPair keys, X509Certificate certificate) {
        this.name = name;
        this.keys = keys;
        this.certificate = certificate;
    }

    /** The files of one Secret: where they were written. */
    public record Secret(Path caCrt, Path tlsCrt, Path tlsKey) {
        public Path dir() {
            return tlsCrt.getParent();
        }
    }

    public static TestCa create(String name) {
        try {
            KeyPair keys = rsa();
            X500Name subject = new X500Name("CN=" + name);
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(), notBefore(), notAfter(),
                    subject, keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new TestCa(name, keys, sign(builder, keys));
        } catch (Exception e) {
            throw new IllegalStateException("cannot make the test CA", e);
        }
    }

    /**
     * A server certificate for {@code dnsNames} (and 127.0.0.1) signed by this CA, written with the CA's certificate
     * into {@code dir} as {@code ca.crt}, {@code tls.crt}, {@code tls.key}.
     */
    public Secret issue(Path dir, String... dnsNames) {
        try {
            KeyPair server = rsa();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(new X500Name("CN=" + name), serial(),
                    notBefore(), notAfter(), new X500Name("CN=" + dnsNames[0]), server.getPublic());
            GeneralName[] names = new GeneralName[dnsNames.length + 1];
            for (int i = 0; i < dnsNames.length; i++) {
                names[i] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
            }
            names[dnsNames.length] = new GeneralName(GeneralName.iPAddress, "127.0.0.1");
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            X509Certificate cert = sign(builder, keys);
            Files.createDirectories(dir);
            return new Secret(Files.writeString(dir.resolve("ca.crt"), pem(certificate)),
                    Files.writeString(dir.resolve("tls.crt"), pem(cert)),
                    Files.writeString(dir.resolve("tls.key"), pem(server.getPrivate())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot issue a test certificate", e);
        }
    }

    /** This CA's certificate alone, as PEM in {@code file}. */
    public Path writeCertificate(Path file) {
        try {
            return Files.writeString(file, pem(certificate));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder builder, KeyPair signer) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(signer.getPrivate())));
    }

    private static String pem(Object o) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        return out.toString();
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }

    private static Date notBefore() {
        return Date.from(Instant.now().minus(Duration.ofMinutes(5)));
    }

    private static Date notAfter() {
        return Date.from(Instant.now().plus(Duration.ofDays(1)));
    }
}
