package dev.continuum.provider.transfer.testing;

import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/** A real S3-compatible server (S3Proxy with its file-system backend) on a free loopback port. */
public final class S3ProxyServer implements AutoCloseable {

    public static final String ACCESS_KEY = "test-access";
    public static final String SECRET_KEY = "test-secret";

    private final S3Proxy proxy;
    private final BlobStoreContext context;

    public S3ProxyServer(Path dataDir, String... buckets) throws Exception {
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", dataDir.toString());
        context = ContextBuilder.newBuilder("filesystem").credentials("identity", "credential")
                .overrides(props).build(BlobStoreContext.class);
        for (String bucket : buckets) {
            context.getBlobStore().createContainerInLocation(null, bucket);
        }
        proxy = S3Proxy.builder().blobStore(context.getBlobStore())
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .endpoint(URI.create("http://127.0.0.1:0")).build();
        proxy.start();
        await("S3Proxy to start").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(25))
                .until(() -> proxy.getState().equals("STARTED"));
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
        context.close();
    }
}
