package dev.continuum.deploy;

import java.io.Console;
import java.io.PrintStream;

/**
 * A progress line: redrawn in place on a terminal; where output goes to a log or a pipe, one line per change, so
 * updates never run together into one unreadable line.
 */
final class Progress {

    private final PrintStream out;
    private final boolean terminal;
    private String shown;

    Progress(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    static Progress onStdout() {
        return new Progress(System.out, stdoutIsTerminal());
    }

    void show(String line) {
        if (line.equals(shown)) {
            return;
        }
        if (terminal) {
            String padding = shown == null ? "" : " ".repeat(Math.max(0, shown.length() - line.length()));
            out.print("\r" + line + padding);
        } else {
            out.println(line);
        }
        out.flush();
        shown = line;
    }

    /** Ends the redrawn line on a terminal; nothing to do elsewhere. */
    void done() {
        if (terminal && shown != null) {
            out.println();
        }
        shown = null;
    }

    /** JDK 22+ gives a Console even when redirected and says so through isTerminal(); JDK 21 gives none then. */
    private static boolean stdoutIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
