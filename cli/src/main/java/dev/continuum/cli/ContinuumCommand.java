package dev.continuum.cli;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.continuum.cli.client.EngineClient;
import dev.continuum.cli.commands.CancelCommand;
import dev.continuum.cli.commands.DeployCommand;
import dev.continuum.cli.commands.FlowsCommand;
import dev.continuum.cli.commands.RedriveCommand;
import dev.continuum.cli.commands.CompletionCommand;
import dev.continuum.cli.commands.GrantsCommand;
import dev.continuum.cli.commands.LoginCommand;
import dev.continuum.cli.commands.LogoutCommand;
import dev.continuum.cli.commands.LogsCommand;
import dev.continuum.cli.commands.PlacementCommand;
import dev.continuum.cli.commands.ReleaseCommand;
import dev.continuum.cli.commands.InputCommand;
import dev.continuum.cli.commands.ResumeCommand;
import dev.continuum.cli.commands.RunsCommand;
import dev.continuum.cli.commands.StartCommand;
import dev.continuum.cli.commands.TriggerCommand;
import dev.continuum.cli.commands.StatusCommand;
import dev.continuum.cli.commands.UpdateCommand;
import dev.continuum.cli.commands.TrainingCommand;
import dev.continuum.cli.commands.ValidateCommand;
import dev.continuum.cli.commands.WatchCommand;
import dev.continuum.cli.signin.BearerTokens;
import dev.continuum.cli.signin.SignInStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.Map;

/** {@code continuum}: the engine's REST API for people at a terminal. Options here apply to every subcommand. */
@Command(name = "continuum", mixinStandardHelpOptions = true, version = "continuum CLI 0.1.0",
        description = "Validate, deploy, start and follow Continuum flows from a terminal.",
        footer = {"", "Exit codes:", "  0  done (watch: the run SUCCEEDED)", "  1  flow invalid (validate), run FAILED or ENDED (watch)",
                "  2  wrong command line, or a file or --input that is not readable JSON",
                "  3  the engine refused the request", "  4  the engine could not be reached", "  5  internal error in the CLI",
                "  6  sign-in needed: not signed in, sign-in expired, or the engine refused the token (run `continuum login`)"},
        subcommands = {LoginCommand.class, LogoutCommand.class, ValidateCommand.class, DeployCommand.class, UpdateCommand.class, FlowsCommand.class,
                StartCommand.class, WatchCommand.class, StatusCommand.class, LogsCommand.class, RunsCommand.class,
                CancelCommand.class, ResumeCommand.class, InputCommand.class, ReleaseCommand.class, TriggerCommand.class, GrantsCommand.class, RedriveCommand.class, CompletionCommand.class,
                PlacementCommand.class, TrainingCommand.class})
public final class ContinuumCommand implements Runnable {

    public static final String DEFAULT_API = "http://127.0.0.1:8080";

    @Option(names = "--api", scope = ScopeType.INHERIT, paramLabel = "URL",
            defaultValue = "${env:CONTINUUM_API:-" + DEFAULT_API + "}",
            description = "Engine API address; default $CONTINUUM_API, else " + DEFAULT_API + " (now: ${DEFAULT-VALUE}).")
    private String api;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Machine-readable JSON output instead of text (the same as --output json).")
    private boolean json;

    private String output = "text";

    /** Checked as it is parsed, so a wrong format is a usage error before anything is sent. */
    @Option(names = {"-o", "--output"}, scope = ScopeType.INHERIT, paramLabel = "text|json", defaultValue = "text",
            description = "Output format: text (default) or json (the engine's answer as it came, for scripts).")
    void output(String format) {
        if (!format.equals("text") && !format.equals("json")) {
            throw new ParameterException(spec.commandLine(), "--output must be text or json, not '" + format + "'");
        }
        output = format;
    }

    @Spec
    private CommandSpec spec;

    private final Map<String, String> environment;
    private BearerTokens tokens;

    public ContinuumCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * Stricter than JSON itself: a state defined twice under one name, or text left after the document, would
     * otherwise be dropped without a word and the flow would not be the one the author wrote.
     */
    private final ObjectMapper mapper = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    @Override
    public void run() {
        spec.commandLine().usage(out());
    }

    public String api() {
        return api;
    }

    public boolean json() {
        return json || output.equals("json");
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    public EngineClient client() {
        URI address;
        try {
            address = new URI(api);
        } catch (URISyntaxException e) {
            address = null;
        }
        if (address == null || address.getHost() == null
                || !("http".equals(address.getScheme()) || "https".equals(address.getScheme()))) {
            throw new UsageProblem("--api must be an http(s) URL such as " + DEFAULT_API + ", not '" + api + "'");
        }
        return new EngineClient(api, mapper, tokens()::current);
    }

    /** The environment the command runs in (tests pass their own: config folder, service account). */
    public Map<String, String> environment() {
        return environment;
    }

    /** One per command line, so a service account's token is fetched once and reused until it runs out. */
    public BearerTokens tokens() {
        if (tokens == null) {
            tokens = new BearerTokens(environment, SignInStore.fromEnvironment(environment), Clock.systemUTC());
        }
        return tokens;
    }

    public PrintWriter out() {
        return spec.commandLine().getOut();
    }

    public PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
