package dev.continuum.engine.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The release an upgrade starts from: the commit named in {@code deploy/upgrade/previous-release} (there are no
 * release tags), its files as git keeps them, and its engine as {@code deploy/upgrade/build-previous.sh} builds it.
 */
public record PreviousRelease(Path repository, String commit) {

    public static final String FILE = "deploy/upgrade/previous-release";
    public static final String MIGRATIONS = "flow-engine/service/src/main/resources/db/migration";

    /** Reads the pinned commit from the repository holding the working directory. */
    public static PreviousRelease read() {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(FILE);
            if (Files.isRegularFile(file)) {
                try {
                    String commit = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                            .map(line -> line.replaceFirst("#.*", "").strip()).filter(line -> !line.isEmpty())
                            .findFirst().orElseThrow(() -> new IllegalStateException(file + " names no commit"));
                    if (!commit.matches("[0-9a-f]{40}")) {
                        throw new IllegalStateException(file + " must name a full 40-digit commit, not '" + commit + "'");
                    }
                    return new PreviousRelease(dir, commit);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no " + FILE + " above " + System.getProperty("user.dir"));
    }

    /** Whether this checkout has git and a history: a source archive has neither. */
    public boolean hasHistory() {
        return Files.exists(repository.resolve(".git"));
    }

    /** The file names in a directory of the release, sorted. */
    public List<String> list(String directory) {
        String out = new String(git("ls-tree", "--name-only", commit + ":" + directory), StandardCharsets.UTF_8);
        return out.lines().filter(line -> !line.isBlank()).sorted().toList();
    }

    /** A file's bytes as the release has them. */
    public byte[] read(String path) {
        return git("cat-file", "blob", commit + ":" + path);
    }

    /**
     * The release's engine ({@code quarkus-run.jar}) where {@code deploy/upgrade/build-previous.sh} puts it:
     * {@code $CONTINUUM_PREVIOUS_ENGINE_DIR} (default {@code $XDG_CACHE_HOME/continuum/previous-engine}, i.e.
     * {@code ~/.cache/continuum/previous-engine}) {@code /<commit>/quarkus-app/quarkus-run.jar}; empty until built.
     */
    public Optional<Path> engineJar() {
        Path jar = engineDirectory().resolve(commit).resolve("quarkus-app/quarkus-run.jar");
        return Files.isRegularFile(jar) ? Optional.of(jar) : Optional.empty();
    }

    public static Path engineDirectory() {
        String dir = System.getenv("CONTINUUM_PREVIOUS_ENGINE_DIR");
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        String cache = System.getenv("XDG_CACHE_HOME");
        Path base = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("continuum/previous-engine");
    }

    private byte[] git(String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", repository.toString()));
        command.addAll(List.of(args));
        try {
            Process git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
            byte[] out = git.getInputStream().readAllBytes();
            String err = new String(git.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + err
                        + " (is the previous release " + commit + " in this clone's history? a shallow clone needs"
                        + " `git fetch --unshallow`)");
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run git (needed to read the previous release " + commit + "): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
