package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.continuum.cli.ContinuumCommand;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.UsageProblem;
import dev.continuum.cli.client.EngineClient;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code continuum placement …}: what the placement planner decided, read from its decision log. */
@Command(name = "placement", mixinStandardHelpOptions = true,
        description = "Placement planner decisions: where jobs ran and why.",
        subcommands = PlacementCommand.Explain.class)
public final class PlacementCommand implements Runnable {

    public static final String DEFAULT_PLANNER = "http://127.0.0.1:8083";

    @ParentCommand
    ContinuumCommand root;

    @Option(names = "--planner", paramLabel = "URL", defaultValue = "${env:CONTINUUM_PLANNER:-" + DEFAULT_PLANNER + "}",
            description = "Planner service address; default $CONTINUUM_PLANNER, else " + DEFAULT_PLANNER + " (now: ${DEFAULT-VALUE}).")
    String planner;

    @Override
    public void run() {
        throw new UsageProblem("say what to do: continuum placement explain <run-or-action-id>");
    }

    EngineClient client() {
        if (!planner.startsWith("http://") && !planner.startsWith("https://")) {
            throw new UsageProblem("--planner must be an http(s) URL such as " + DEFAULT_PLANNER + ", not '" + planner + "'");
        }
        return new EngineClient(planner, root.mapper(), root.tokens()::current);
    }

    /** Every decision about a job (action id) or about every job of a run, oldest first, with the reasons. */
    @Command(name = "explain", mixinStandardHelpOptions = true,
            description = "Where a job ran and why: every planner decision about it (GET /placements?subject=ID).")
    static final class Explain implements Callable<Integer> {

        private static final int PAGE = 500;

        @ParentCommand
        PlacementCommand placement;

        @Parameters(paramLabel = "RUN_OR_ACTION_ID")
        String subject;

        @Override
        public Integer call() {
            EngineClient client = placement.client();
            ArrayNode all = placement.root.mapper().createArrayNode();
            Optional<String> marker = Optional.empty();
            do {
                JsonNode page = client.placements(subject, PAGE, marker);
                page.path("placements").forEach(all::add);
                marker = page.hasNonNull("marker") ? Optional.of(page.get("marker").asText()) : Optional.empty();
            } while (marker.isPresent());
            var out = placement.root.out();
            ArrayNode forecasts = forecastsAtSites(client, all);
            if (placement.root.json()) {
                var printed = placement.root.mapper().createObjectNode();
                printed.set("placements", all);
                printed.set("forecasts", forecasts);
                out.println(Render.pretty(printed));
            } else if (all.isEmpty()) {
                out.println("The planner has no decision about " + subject + ".");
            } else {
                PlacementText.lines(all).forEach(out::println);
                PlacementText.forecastLines(forecasts).forEach(out::println);
            }
            return all.isEmpty() ? ExitCodes.NOT_OK : ExitCodes.OK;
        }

        /**
         * The planner's arrival forecasts at each site an inference job was placed or queued at: the load the job
         * met there and what is expected next. A planner without forecasts (older, or none yet) adds nothing.
         */
        private ArrayNode forecastsAtSites(EngineClient client, ArrayNode entries) {
            ArrayNode out = placement.root.mapper().createArrayNode();
            java.util.Set<String> sites = new java.util.LinkedHashSet<>();
            entries.forEach(e -> {
                if ("inference".equals(e.path("kind").asText()) && e.hasNonNull("site")) {
                    sites.add(e.get("site").asText());
                }
            });
            for (String site : sites) {
                try {
                    client.forecasts(site).path("forecasts").forEach(out::add);
                } catch (dev.continuum.cli.client.ApiProblem noForecasts) {
                    return out;
                }
            }
            return out;
        }
    }
}
