package dev.continuum.provider.transfer.endpoint;

import dev.continuum.paths.EndpointPath;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3-compatible bucket (AWS, MinIO, Ceph RGW, S3Proxy) under an optional key prefix. Directories
 * are implicit (key prefixes). Files of one chunk are stored with one PUT; larger files with a
 * multipart upload whose id is the resume token, so a restarted transfer continues the same
 * upload. Every PUT carries Content-MD5, so the server refuses a part damaged on the way, and the
 * returned ETag is compared with the MD5 we computed; after commit the engine re-reads and
 * verifies the object chunk by chunk (SHA-256). The source modification time travels as the
 * {@code continuum-mtime} user metadata, set when the upload begins.
 */
public final class S3Storage implements Storage {

    private static final String MTIME = "continuum-mtime";

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final int singlePutLimit;

    /**
     * @param singlePutLimit files up to this size go in one PUT; the engine's chunk size
     */
    public S3Storage(S3Client s3, String bucket, String prefix, int singlePutLimit) {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix == null || prefix.isEmpty() ? "" : prefix.replaceAll("/+$", "") + "/";
        this.singlePutLimit = singlePutLimit;
    }

    /** A client for an S3-compatible server: path-style addressing, no optional checksum trailers. */
    public static S3Client client(URI endpoint, String region, String accessKey, String secretKey) {
        var builder = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.of(region == null ? "us-east-1" : region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    private String key(EndpointPath path) {
        return prefix + path.relative();
    }

    private String dirPrefix(EndpointPath dir) {
        return dir.isRoot() ? prefix : key(dir) + "/";
    }

    @Override
    public Optional<Entry> stat(EndpointPath path) throws IOException {
        if (path.isRoot()) {
            return Optional.of(new Entry("", Entry.Kind.DIRECTORY, 0, Instant.EPOCH));
        }
        try {
            HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(key(path)));
            return Optional.of(new Entry(path.name(), Entry.Kind.FILE, head.contentLength(), mtime(head.metadata(), head.lastModified())));
        } catch (NoSuchKeyException e) {
            // maybe a directory
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw io(e);
            }
        } catch (SdkException e) {
            throw io(e);
        }
        try {
            ListObjectsV2Response page = s3.listObjectsV2(b -> b.bucket(bucket).prefix(dirPrefix(path)).maxKeys(1));
            return page.keyCount() != null && page.keyCount() > 0
                    ? Optional.of(new Entry(path.name(), Entry.Kind.DIRECTORY, 0, Instant.EPOCH))
                    : Optional.empty();
        } catch (SdkException e) {
            throw io(e);
        }
    }

    private static Instant mtime(Map<String, String> metadata, Instant fallback) {
        String value = metadata == null ? null : metadata.get(MTIME);
        if (value != null) {
            try {
                return Instant.ofEpochMilli(Long.parseLong(value));
            } catch (NumberFormatException ignored) {
                // someone else's metadata: use the server's time
            }
        }
        return fallback;
    }

    @Override
    public List<Entry> list(EndpointPath dir) throws IOException {
        String p = dirPrefix(dir);
        List<Entry> out = new ArrayList<>();
        try {
            ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(bucket).prefix(p).delimiter("/").build();
            for (ListObjectsV2Response page : s3.listObjectsV2Paginator(request)) {
                for (CommonPrefix cp : page.commonPrefixes()) {
                    String name = cp.prefix().substring(p.length()).replaceAll("/$", "");
                    if (!name.isEmpty()) {
                        out.add(new Entry(name, Entry.Kind.DIRECTORY, 0, Instant.EPOCH));
                    }
                }
                for (S3Object o : page.contents()) {
                    String name = o.key().substring(p.length());
                    if (!name.isEmpty() && !name.contains("/")) {
                        out.add(new Entry(name, Entry.Kind.FILE, o.size(), o.lastModified()));
                    }
                }
            }
        } catch (SdkException e) {
            throw io(e);
        }
        out.sort(Comparator.comparing(Entry::name));
        return out;
    }

    @Override
    public void mkdirs(EndpointPath dir) {
        // directories are key prefixes: nothing to create
    }

    @Override
    public boolean delete(EndpointPath path, boolean recursive) throws IOException {
        Optional<Entry> entry = stat(path);
        if (entry.isEmpty()) {
            return false;
        }
        try {
            if (entry.get().isFile()) {
                s3.deleteObject(b -> b.bucket(bucket).key(key(path)));
                return true;
            }
            if (!recursive) {
                throw new IOException("directory " + path + " is not empty; set recursive to delete it with its contents");
            }
            // one DELETE per key: the batch call needs a checksum header not every S3-compatible server accepts
            for (ListObjectsV2Response page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(dirPrefix(path)))) {
                for (S3Object o : page.contents()) {
                    s3.deleteObject(b -> b.bucket(bucket).key(o.key()));
                }
            }
            return true;
        } catch (SdkException e) {
            throw io(e);
        }
    }

    @Override
    public int read(EndpointPath file, long offset, ByteBuffer into) throws IOException {
        if (!into.hasRemaining()) {
            return 0;
        }
        String range = "bytes=" + offset + "-" + (offset + into.remaining() - 1);
        int total = 0;
        try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(key(file)).range(range))) {
            byte[] buf = new byte[64 * 1024];
            while (into.hasRemaining()) {
                int n = in.read(buf, 0, Math.min(buf.length, into.remaining()));
                if (n < 0) {
                    break;
                }
                into.put(buf, 0, n);
                total += n;
            }
        } catch (S3Exception e) {
            if (e.statusCode() == 416) {
                return 0;   // offset at or past the end
            }
            throw io(e);
        } catch (SdkException e) {
            throw io(e);
        }
        return total;
    }

    @Override
    public Upload openUpload(EndpointPath file, long size, Instant modified, String resumeToken) throws IOException {
        String key = key(file);
        Map<String, String> metadata = Map.of(MTIME, Long.toString(modified.toEpochMilli()));
        if (size <= singlePutLimit) {
            return new SinglePut(key, metadata);
        }
        try {
            if (resumeToken != null && !resumeToken.isEmpty() && !resumeToken.equals(SinglePut.TOKEN)) {
                try {
                    s3.listParts(b -> b.bucket(bucket).key(key).uploadId(resumeToken).maxParts(1));
                    return new Multipart(key, resumeToken, true);
                } catch (NoSuchUploadException gone) {
                    // expired or aborted meanwhile: start a new one
                } catch (S3Exception e) {
                    if (e.statusCode() != 404) {
                        throw e;
                    }
                }
            }
            String id = s3.createMultipartUpload(b -> b.bucket(bucket).key(key).metadata(metadata)).uploadId();
            return new Multipart(key, id, false);
        } catch (SdkException e) {
            throw io(e);
        }
    }

    @Override
    public String describe() {
        return "s3 " + bucket + "/" + prefix;
    }

    private static IOException io(SdkException e) {
        return new IOException(e.getMessage(), e);
    }

    private static String md5(ByteBuffer data, boolean base64) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(data.duplicate());
            byte[] d = md.digest();
            return base64 ? Base64.getEncoder().encodeToString(d) : HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(ByteBuffer data) {
        byte[] out = new byte[data.remaining()];
        data.duplicate().get(out);
        return out;
    }

    private static void checkEtag(String etag, String expectedMd5Hex, String what) throws IOException {
        String plain = etag == null ? "" : etag.replace("\"", "");
        if (!plain.equalsIgnoreCase(expectedMd5Hex)) {
            throw new IOException("the server's ETag " + plain + " for " + what + " is not the MD5 of the bytes sent ("
                    + expectedMd5Hex + ")");
        }
    }

    /** A one-chunk file: one PUT with Content-MD5, visible at once (S3 PUTs are atomic). */
    private final class SinglePut implements Upload {
        static final String TOKEN = "single-put";
        private final String key;
        private final Map<String, String> metadata;

        SinglePut(String key, Map<String, String> metadata) {
            this.key = key;
            this.metadata = metadata;
        }

        @Override public String resumeToken() { return TOKEN; }
        @Override public boolean resumed() { return false; }
        @Override public boolean readBack(long offset, ByteBuffer into) { return false; }
        @Override public void commit(Instant modified, SortedMap<Integer, String> receipts) { }
        @Override public void close() { }

        @Override
        public String write(int index, long offset, ByteBuffer data) throws IOException {
            String md5Hex = md5(data, false);
            try {
                String etag = s3.putObject(b -> b.bucket(bucket).key(key).contentMD5(md5(data, true)).metadata(metadata),
                        RequestBody.fromBytes(bytes(data))).eTag();
                checkEtag(etag, md5Hex, key);
                return etag.replace("\"", "");
            } catch (SdkException e) {
                throw io(e);
            }
        }

        @Override
        public void abort() throws IOException {
            try {
                s3.deleteObject(b -> b.bucket(bucket).key(key));
            } catch (SdkException e) {
                throw io(e);
            }
        }
    }

    private final class Multipart implements Upload {
        private final String key;
        private final String uploadId;
        private final boolean resumed;

        Multipart(String key, String uploadId, boolean resumed) {
            this.key = key;
            this.uploadId = uploadId;
            this.resumed = resumed;
        }

        @Override public String resumeToken() { return uploadId; }
        @Override public boolean resumed() { return resumed; }
        @Override public boolean readBack(long offset, ByteBuffer into) { return false; }
        @Override public void close() { }

        @Override
        public String write(int index, long offset, ByteBuffer data) throws IOException {
            String md5Hex = md5(data, false);
            try {
                String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(index + 1)
                        .contentMD5(md5(data, true)).contentLength((long) data.remaining()), RequestBody.fromBytes(bytes(data))).eTag();
                checkEtag(etag, md5Hex, key + " part " + (index + 1));
                return etag.replace("\"", "");
            } catch (SdkException e) {
                throw io(e);
            }
        }

        @Override
        public void commit(Instant modified, SortedMap<Integer, String> receipts) throws IOException {
            List<CompletedPart> parts = new ArrayList<>();
            receipts.forEach((index, etag) -> parts.add(CompletedPart.builder().partNumber(index + 1).eTag(etag).build()));
            try {
                s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                        .multipartUpload(m -> m.parts(parts)));
            } catch (SdkException e) {
                throw io(e);
            }
        }

        @Override
        public void abort() throws IOException {
            try {
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
            } catch (SdkException e) {
                throw io(e);
            }
        }
    }
}
