package dev.continuum.edge.broker;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;

/**
 * A server certificate chain and its private key from PEM files, as cert-manager writes them into a
 * {@code kubernetes.io/tls} Secret ({@code tls.crt}, {@code tls.key}): the key PKCS#8 ({@code BEGIN PRIVATE KEY}, RSA
 * or EC) or PKCS#1 ({@code BEGIN RSA PRIVATE KEY}, cert-manager's default). Turned into a key store in memory; nothing
 * is written to disk and the key never appears in a message.
 */
public record PemKeyPair(Path certFile, Path keyFile) {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

    /** The files, checked to exist; an error names {@code certSetting} or {@code keySetting}. */
    public static PemKeyPair of(Path certFile, Path keyFile, String certSetting, String keySetting) {
        if (certFile == null || !Files.isReadable(certFile)) {
            throw new IllegalArgumentException(certSetting + ": certificate file " + certFile + " not found or not readable");
        }
        if (keyFile == null || !Files.isReadable(keyFile)) {
            throw new IllegalArgumentException(keySetting + ": key file " + keyFile + " not found or not readable");
        }
        return new PemKeyPair(certFile, keyFile);
    }

    /** Key managers serving this chain with this key. */
    public KeyManagerFactory keyManagers() {
        try {
            List<Certificate> chain = new ArrayList<>();
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(certFile)) {
                if (b.type().equals("CERTIFICATE")) {
                    chain.add(x509.generateCertificate(new ByteArrayInputStream(b.der())));
                }
            }
            if (chain.isEmpty()) {
                throw new IllegalArgumentException(certFile + " holds no PEM CERTIFICATE");
            }
            PrivateKey key = privateKey();
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] none = new char[0];
            store.setKeyEntry("server", key, none, chain.toArray(Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, none);
            return kmf;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot use the certificate " + certFile + " with the key " + keyFile + ": "
                    + e.getClass().getSimpleName(), e);
        }
    }

    private PrivateKey privateKey() throws GeneralSecurityException {
        for (Block b : blocks(keyFile)) {
            switch (b.type()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(b.der());
                }
                case "RSA PRIVATE KEY" -> {
                    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(rsaPkcs1ToPkcs8(b.der())));
                }
                case "EC PRIVATE KEY" -> throw new IllegalArgumentException(keyFile + ": an EC key in SEC1 form is not read;"
                        + " give it as PKCS#8 (cert-manager: privateKey.encoding PKCS8; openssl pkcs8 -topk8 -nocrypt)");
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException(keyFile + ": an encrypted key is not read");
                default -> { }
            }
        }
        throw new IllegalArgumentException(keyFile + " holds no PEM PRIVATE KEY or RSA PRIVATE KEY");
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        GeneralSecurityException last = null;
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw last;
    }

    /** PrivateKeyInfo ::= SEQUENCE { 0, AlgorithmIdentifier { rsaEncryption, NULL }, OCTET STRING pkcs1 }. */
    private static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
        byte[] version = {0x02, 0x01, 0x00};
        byte[] algorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01,
                0x05, 0x00};
        byte[] key = der(0x04, pkcs1);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(version);
        body.writeBytes(algorithm);
        body.writeBytes(key);
        return der(0x30, body.toByteArray());
    }

    private static byte[] der(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private record Block(String type, byte[] der) {}

    private static List<Block> blocks(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        List<Block> found = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            found.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
        }
        return found;
    }
}
