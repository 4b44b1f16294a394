package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.InputRef;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.paths.UnsafePathException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A task's input tensor: the one in the message, or the tensor file its {@code input_ref} names in the
 * data directory — never a file outside it. A bad input is an {@link IllegalArgumentException} whose
 * message the task's FAILED result carries.
 */
final class TaskInputs {

    static final long MAX_INPUT_FILE_BYTES = 256L * 1024 * 1024;

    private final Path dataDir;
    private volatile Path dataRoot;

    TaskInputs(Path dataDir) {
        this.dataDir = dataDir;
    }

    Tensor resolve(TaskMessage task) {
        if (task.input() != null) {
            // decoded (base64) and checked once here; ONNX gets these values without a second decode
            return Tensor.of(task.input().shape(), task.input().values());
        }
        if (task.inputRef() == null) {
            throw new IllegalArgumentException("neither input nor input_ref");
        }
        // confined to the data directory: syntax by InputRef, symlinks by resolveIn, and the last
        // component is opened without following a link planted after the check
        try {
            Path file = InputRef.parse(task.inputRef()).resolveIn(dataRoot());
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalArgumentException("input_ref " + task.inputRef() + " names no file in the data directory");
            }
            if (Files.size(file) > MAX_INPUT_FILE_BYTES) {
                throw new IllegalArgumentException("input_ref " + task.inputRef() + " is larger than "
                        + MAX_INPUT_FILE_BYTES / (1024 * 1024) + " MB");
            }
            byte[] bytes;
            try (var in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                bytes = in.readAllBytes();
            }
            Tensor t = Wire.decode(bytes, Tensor.class);
            return Tensor.of(t.shape(), t.values());
        } catch (UnsafePathException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("input_ref " + task.inputRef() + " names no file in the data directory");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read input_ref " + task.inputRef() + ": " + e.getMessage());
        }
    }

    /** The data directory's real path, made on first use (a gateway that never reads a file needs none). */
    private Path dataRoot() throws IOException {
        Path root = dataRoot;
        if (root == null) {
            Files.createDirectories(dataDir);
            root = dataDir.toRealPath();
            dataRoot = root;
        }
        return root;
    }
}
