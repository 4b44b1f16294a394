package dev.continuum.provider.transfer.endpoint;

import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.UnsafePathException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.stream.Stream;

/**
 * A directory on a local or datacenter (NFS, Lustre, GPFS) file system. Symlinks inside the
 * root are followed only when they resolve inside the root; one that leads out is refused.
 * Partial uploads live beside their target as {@code .NAME.continuum-part} and are renamed into
 * place at commit.
 */
public final class LocalStorage implements Storage {

    static final String PART_SUFFIX = ".continuum-part";

    private final Path root;
    private final Path realRoot;

    public LocalStorage(Path root) {
        try {
            Files.createDirectories(root);
            this.root = root.toAbsolutePath().normalize();
            this.realRoot = this.root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open endpoint root " + root, e);
        }
    }

    public Path root() {
        return root;
    }

    /**
     * The file system path of {@code path}, refusing any existing component that is a symlink
     * resolving outside the root.
     */
    public Path resolve(EndpointPath path) throws IOException {
        return path.resolveIn(realRoot);
    }

    @Override
    public Optional<Entry> stat(EndpointPath path) throws IOException {
        Path p = resolve(path);
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return Optional.of(entry(path.isRoot() ? "" : path.name(), a));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<Entry> list(EndpointPath dir) throws IOException {
        Path p = resolve(dir);
        List<Entry> out = new ArrayList<>();
        try (Stream<Path> children = Files.list(p)) {
            for (Path child : (Iterable<Path>) children::iterator) {
                String name = child.getFileName().toString();
                if (name.endsWith(PART_SUFFIX) && name.startsWith(".")) {
                    continue;   // our own partial uploads are not data
                }
                BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isSymbolicLink()) {
                    try {
                        Path target = child.toRealPath();
                        if (!target.startsWith(realRoot)) {
                            continue;   // never list (nor copy) what a link outside the root holds
                        }
                        a = Files.readAttributes(target, BasicFileAttributes.class);
                    } catch (NoSuchFileException dangling) {
                        continue;
                    }
                }
                out.add(entry(name, a));
            }
        }
        out.sort(Comparator.comparing(Entry::name));
        return out;
    }

    private static Entry entry(String name, BasicFileAttributes a) {
        Entry.Kind kind = a.isDirectory() ? Entry.Kind.DIRECTORY : a.isRegularFile() ? Entry.Kind.FILE : Entry.Kind.OTHER;
        return new Entry(name, kind, a.isDirectory() ? 0 : a.size(), a.lastModifiedTime().toInstant());
    }

    @Override
    public void mkdirs(EndpointPath dir) throws IOException {
        Files.createDirectories(resolve(dir));
    }

    @Override
    public boolean delete(EndpointPath path, boolean recursive) throws IOException {
        if (path.isRoot()) {
            throw new UnsafePathException("/", "the endpoint root itself cannot be deleted");
        }
        Path p = resolve(path);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && recursive) {
            Files.walkFileTree(p, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);   // a symlink is removed, never followed
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
            return true;
        }
        try {
            Files.delete(p);
        } catch (DirectoryNotEmptyException e) {
            throw new IOException("directory " + path + " is not empty; set recursive to delete it with its contents");
        }
        return true;
    }

    @Override
    public int read(EndpointPath file, long offset, ByteBuffer into) throws IOException {
        try (FileChannel ch = FileChannel.open(resolve(file), StandardOpenOption.READ)) {
            return readFully(ch, offset, into);
        }
    }

    static int readFully(FileChannel ch, long offset, ByteBuffer into) throws IOException {
        int total = 0;
        while (into.hasRemaining()) {
            int n = ch.read(into, offset + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    /** The name a partial upload of the file {@code name} has beside it until it is committed. */
    public static String partName(String name) {
        return "." + name + PART_SUFFIX;
    }

    @Override
    public Upload openUpload(EndpointPath file, long size, Instant modified, String resumeToken) throws IOException {
        if (file.isRoot()) {
            throw new UnsafePathException("/", "the endpoint root is not a file");
        }
        Path target = resolve(file);
        Files.createDirectories(target.getParent());
        resolve(file.parent());   // parents created just now may be links planted meanwhile
        Path part = target.resolveSibling(partName(target.getFileName().toString()));
        if (Files.isSymbolicLink(part)) {
            Files.delete(part);
        }
        boolean resumed = part.getFileName().toString().equals(resumeToken) && Files.isRegularFile(part);
        FileChannel ch = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        return new LocalUpload(target, part, ch, size, resumed);
    }

    @Override
    public Optional<Path> localFile(EndpointPath file) throws IOException {
        return Optional.of(resolve(file));
    }

    @Override
    public String describe() {
        return "directory " + root;
    }

    private static final class LocalUpload implements Upload {
        private final Path target;
        private final Path part;
        private final FileChannel channel;
        private final long size;
        private final boolean resumed;

        LocalUpload(Path target, Path part, FileChannel channel, long size, boolean resumed) {
            this.resumed = resumed;
            this.target = target;
            this.part = part;
            this.channel = channel;
            this.size = size;
        }

        @Override
        public String resumeToken() {
            return part.getFileName().toString();
        }

        @Override
        public boolean resumed() {
            return resumed;
        }

        @Override
        public String write(int index, long offset, ByteBuffer data) throws IOException {
            long position = offset;
            while (data.hasRemaining()) {
                position += channel.write(data, position);
            }
            return "";
        }

        @Override
        public boolean readBack(long offset, ByteBuffer into) throws IOException {
            readFully(channel, offset, into);
            return true;
        }

        @Override
        public boolean copyFrom(Path source, long offset, long length) throws IOException {
            // a channel of its own: transferTo writes at the target's position, and chunks are copied in parallel
            try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                 FileChannel out = FileChannel.open(part, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                out.position(offset);
                for (long done = 0; done < length; ) {
                    long n = in.transferTo(offset + done, length - done, out);
                    if (n <= 0) {
                        throw new IOException("source " + source.getFileName() + " ended at " + (offset + done)
                                + ", expected " + (offset + length) + " bytes");
                    }
                    done += n;
                }
            }
            return true;
        }

        @Override
        public Optional<ByteBuffer> map(long offset, long length) throws IOException {
            return Optional.of(channel.map(FileChannel.MapMode.READ_ONLY, offset, length));
        }

        @Override
        public void commit(Instant modified, SortedMap<Integer, String> receipts) throws IOException {
            if (channel.size() > size) {
                channel.truncate(size);
            }
            channel.close();
            Files.setLastModifiedTime(part, FileTime.from(modified));
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }

        @Override
        public void abort() throws IOException {
            channel.close();
            Files.deleteIfExists(part);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
