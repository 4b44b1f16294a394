package dev.continuum.provider.transfer.testing;

import dev.continuum.provider.transfer.endpoint.Entry;
import dev.continuum.provider.transfer.endpoint.Storage;
import dev.continuum.provider.transfer.endpoint.Upload;
import dev.continuum.paths.EndpointPath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a destination storage to inject faults: flips one byte of the first {@code corruptWrites}
 * chunk writes (as a bad disk or network would), and fails every write after {@code failAfterWrites}.
 * Kernel copies ({@link Upload#copyFrom}) count as writes and are corrupted the same way, after the copy.
 */
public final class FaultyStorage implements Storage {

    private final Storage inner;
    private final AtomicInteger corruptionsLeft;
    private final AtomicInteger writesLeft;
    public final AtomicInteger writes = new AtomicInteger();
    public final AtomicInteger bytesWritten = new AtomicInteger();

    public FaultyStorage(Storage inner, int corruptWrites, int failAfterWrites) {
        this.inner = inner;
        this.corruptionsLeft = new AtomicInteger(corruptWrites);
        this.writesLeft = new AtomicInteger(failAfterWrites);
    }

    @Override public Optional<Entry> stat(EndpointPath path) throws IOException { return inner.stat(path); }
    @Override public List<Entry> list(EndpointPath dir) throws IOException { return inner.list(dir); }
    @Override public void mkdirs(EndpointPath dir) throws IOException { inner.mkdirs(dir); }
    @Override public boolean delete(EndpointPath path, boolean recursive) throws IOException { return inner.delete(path, recursive); }
    @Override public int read(EndpointPath file, long offset, ByteBuffer into) throws IOException { return inner.read(file, offset, into); }
    @Override public String describe() { return "faulty " + inner.describe(); }

    @Override
    public Upload openUpload(EndpointPath file, long size, Instant modified, String resumeToken) throws IOException {
        Upload up = inner.openUpload(file, size, modified, resumeToken);
        return new Upload() {
            @Override public String resumeToken() { return up.resumeToken(); }
            @Override public boolean resumed() { return up.resumed(); }
            @Override public boolean readBack(long offset, ByteBuffer into) throws IOException { return up.readBack(offset, into); }
            @Override public Optional<String> hashBack(long offset, int length) throws IOException { return up.hashBack(offset, length); }
            @Override public void commit(Instant modified, SortedMap<Integer, String> receipts) throws IOException { up.commit(modified, receipts); }
            @Override public void abort() throws IOException { up.abort(); }
            @Override public void close() throws IOException { up.close(); }

            @Override
            public Optional<java.nio.ByteBuffer> map(long offset, long length) throws IOException {
                return up.map(offset, length);
            }

            @Override
            public boolean copyFrom(Path source, long offset, long length) throws IOException {
                count(length);
                if (!up.copyFrom(source, offset, length)) {   // not a local file: the engine writes instead
                    writesLeft.incrementAndGet();
                    writes.decrementAndGet();
                    bytesWritten.addAndGet((int) -length);
                    return false;
                }
                if (length > 0 && corruptionsLeft.getAndDecrement() > 0) {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    long middle = offset + length / 2;
                    up.readBack(middle, one);
                    up.write(-1, middle, ByteBuffer.wrap(new byte[] {(byte) (one.get(0) ^ 0x40)}));
                }
                return true;
            }

            private void count(long length) throws IOException {
                if (writesLeft.getAndDecrement() <= 0) {
                    throw new IOException("injected failure: destination went away");
                }
                writes.incrementAndGet();
                bytesWritten.addAndGet((int) length);
            }

            @Override
            public String write(int index, long offset, ByteBuffer data) throws IOException {
                count(data.remaining());
                if (data.remaining() > 0 && corruptionsLeft.getAndDecrement() > 0) {
                    ByteBuffer bad = ByteBuffer.allocate(data.remaining());
                    bad.put(data.duplicate()).flip();
                    bad.put(bad.limit() / 2, (byte) (bad.get(bad.limit() / 2) ^ 0x40));
                    return up.write(index, offset, bad);
                }
                return up.write(index, offset, data);
            }
        };
    }
}
