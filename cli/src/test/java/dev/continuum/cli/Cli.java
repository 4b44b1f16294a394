package dev.continuum.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/** Runs the CLI in-process as a user would from a shell, capturing what it prints and its exit code. */
final class Cli {

    record Result(int exitCode, String out, String err) {}

    private Cli() {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    /** A flow file from src/test/resources/flows. */
    static Path flow(String name) {
        try {
            return Path.of(Objects.requireNonNull(Cli.class.getResource("/flows/" + name), name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
