package dev.continuum.cli.commands;

import dev.continuum.cli.ExitCodes;
import picocli.AutoComplete;
import picocli.CommandLine.Command;

@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a bash/zsh completion script for continuum (picocli's AutoComplete).",
                "Load it with: source <(continuum completion)   (zsh: autoload -U +X bashcompinit && bashcompinit first)"})
public final class CompletionCommand extends EngineCommand {

    @Override
    public Integer call() {
        out().print(AutoComplete.bash("continuum", spec.root().commandLine()));
        return ExitCodes.OK;
    }
}
