package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ContinuumCommand;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** What every subcommand shares: the global options, the engine client and the two output modes. */
abstract class EngineCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** The top command, however deep this one is nested ({@code continuum grants revoke}, {@code continuum flows delete}). */
    ContinuumCommand root() {
        return (ContinuumCommand) spec.root().userObject();
    }

    PrintWriter out() {
        return root().out();
    }

    /** Where to talk to the person while they act elsewhere (a browser): stderr with --output json, keeping stdout JSON. */
    PrintWriter prompts() {
        return json() ? root().err() : out();
    }

    boolean json() {
        return root().json();
    }

    void print(List<String> lines) {
        lines.forEach(out()::println);
    }

    /** With {@code --json} the engine's answer as it came; otherwise the given text. */
    void show(JsonNode answer, List<String> text) {
        if (json()) {
            out().println(Render.pretty(answer));
        } else {
            print(text);
        }
    }
}
