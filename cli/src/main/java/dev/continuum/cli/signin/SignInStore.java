package dev.continuum.cli.signin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * Where the sign-in is kept: {@code sign-in.json} in the user's Continuum config folder
 * ({@code $CONTINUUM_CONFIG_DIR}, else {@code $XDG_CONFIG_HOME/continuum}, else {@code ~/.config/continuum}).
 * Folder mode 700, file mode 600, both set at creation, and replaced atomically so a crash never
 * leaves half a file.
 */
public final class SignInStore {

    static final String FILE = "sign-in.json";
    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).addModule(new Jdk8Module())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    private final Path folder;

    public SignInStore(Path folder) {
        this.folder = folder;
    }

    /** The store the environment points at (see the class comment). */
    public static SignInStore fromEnvironment(Map<String, String> env) {
        String configured = env.get("CONTINUUM_CONFIG_DIR");
        if (configured != null && !configured.isBlank()) {
            return new SignInStore(Path.of(configured));
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return new SignInStore(base.resolve("continuum"));
    }

    public Path file() {
        return folder.resolve(FILE);
    }

    public Optional<SignIn> load() {
        Path file = file();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), SignIn.class));
        } catch (IOException e) {
            throw new SignInNeeded("the stored sign-in in " + file + " cannot be read (" + e.getMessage()
                    + "); run `continuum login` again");
        }
    }

    public void save(SignIn signIn) {
        try {
            if (!Files.isDirectory(folder)) {
                Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path temp = Files.createTempFile(folder, FILE, ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                JSON.writeValue(temp.toFile(), signIn);
                Files.move(temp, file(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store the sign-in in " + folder + ": " + e.getMessage(), e);
        }
    }

    /** Forgets the sign-in; true when there was one. */
    public boolean delete() {
        try {
            return Files.deleteIfExists(file());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + file() + ": " + e.getMessage(), e);
        }
    }
}
