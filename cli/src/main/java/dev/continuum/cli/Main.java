package dev.continuum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.client.ApiProblem;
import dev.continuum.cli.client.EngineUnreachable;
import dev.continuum.cli.client.Problem;
import dev.continuum.cli.files.FileProblem;
import dev.continuum.cli.signin.SignInNeeded;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Entry point of the {@code continuum} command; turns every failure into one readable message and an exit code. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        // The schema validator logs through SLF4J; without a binding SLF4J warns on every run, which only confuses.
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, out, err));
    }

    /** Runs one command line, writing to the given streams; returns the exit code (see {@link ExitCodes}). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, System.getenv());
    }

    /** As {@link #run(String[], PrintWriter, PrintWriter)} with the given environment instead of the process's. */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> environment) {
        ContinuumCommand root = new ContinuumCommand(environment);
        CommandLine line = new CommandLine(root);
        line.setOut(out);
        line.setErr(err);
        line.setExecutionExceptionHandler((failure, commandLine, parsed) -> report(failure, root, err));
        int code = line.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static int report(Exception failure, ContinuumCommand root, PrintWriter err) {
        switch (failure) {
            case ApiProblem refused -> {
                Problem problem = refused.problem();
                if (root.json()) {
                    ObjectNode body = root.mapper().valueToTree(problem);
                    err.println(body);
                } else {
                    problem.lines().forEach(err::println);
                }
                if (problem.status() == 401) {
                    err.println("continuum: the engine wants a valid sign-in: run `continuum login` (scripts: set "
                            + "CONTINUUM_CLIENT_ID and CONTINUUM_CLIENT_SECRET)");
                    return ExitCodes.SIGN_IN;
                }
                return ExitCodes.REFUSED;
            }
            case SignInNeeded needed -> {
                err.println("continuum: " + needed.getMessage());
                return ExitCodes.SIGN_IN;
            }
            case EngineUnreachable unreachable -> {
                err.println("continuum: " + unreachable.hint());
                return ExitCodes.UNREACHABLE;
            }
            case UsageProblem usage -> {
                err.println("continuum: " + usage.getMessage());
                return ExitCodes.USAGE;
            }
            case FileProblem unreadable -> {
                err.println("continuum: " + unreadable.getMessage());
                return ExitCodes.USAGE;
            }
            default -> {
                err.println("continuum: internal error: " + failure);
                return ExitCodes.INTERNAL;
            }
        }
    }
}
