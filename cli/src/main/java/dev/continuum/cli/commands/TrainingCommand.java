package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.UsageProblem;
import dev.continuum.cli.client.EngineClient;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code continuum training ...}: the training provider's operator API (docs/training.md, "Operators"), through the
 * engine's relay {@code /ops/training} so the CLI keeps one address and one sign-in. The provider decides who may:
 * operators (realm role continuum-admin); others get its 403.
 */
@Command(name = "training", mixinStandardHelpOptions = true,
        description = {"Training jobs for operators: list them, preempt, resize or migrate one (through the engine's /ops/training).",
                "Only operators (realm role continuum-admin) may; the training provider refuses others."},
        subcommands = {TrainingCommand.Jobs.class, TrainingCommand.Preempt.class, TrainingCommand.Resize.class,
                TrainingCommand.Migrate.class})
public final class TrainingCommand implements Runnable {

    private static final String RELAY = "/ops/training/jobs";

    @Override
    public void run() {
        throw new UsageProblem("say what to do: continuum training jobs|preempt|resize|migrate (see continuum training --help)");
    }

    @Command(name = "jobs", mixinStandardHelpOptions = true,
            description = "Every job the training provider knows: id, state, site, partition, GPUs, owner, started (GET /ops/training/jobs).")
    static final class Jobs extends EngineCommand {

        @Override
        public Integer call() {
            JsonNode answer = root().client().call("GET", RELAY, null);
            show(answer, table(answer));
            return ExitCodes.OK;
        }

        static List<String> table(JsonNode answer) {
            List<String> lines = new ArrayList<>();
            if (answer.path("jobs").isEmpty()) {
                lines.add("The training provider has no jobs.");
                return lines;
            }
            String row = "%-36s  %-13s  %-10s  %-10s  %4s  %-16s  %s";
            lines.add(String.format(row, "JOB ID", "STATE", "SITE", "PARTITION", "GPUS", "OWNER", "STARTED"));
            for (JsonNode job : answer.path("jobs")) {
                lines.add(String.format(row, Render.text(job, "id"), Render.text(job, "state"), Render.text(job, "site"),
                        Render.text(job, "partition"), job.path("gpus").asInt(), Render.text(job, "owner"),
                        Render.time(job, "started")));
            }
            return lines;
        }
    }

    /** One operation on one job: {@code POST /ops/training/jobs/{id}/{operation}}; prints the job's new state. */
    abstract static class Operation extends EngineCommand {

        @Parameters(paramLabel = "JOB_ID", description = "The training action's id (see `continuum training jobs`).")
        String job;

        abstract String name();

        /** The request body; null for none. */
        abstract ObjectNode body();

        @Override
        public Integer call() {
            JsonNode details = root().client().call("POST", RELAY + "/" + EngineClient.pathSegment(job) + "/" + name(), body());
            JsonNode at = details.path("placement");
            String where = at.isObject() ? " (on " + Render.text(at, "partition") + " at " + Render.text(at, "site") + ", "
                    + at.path("gpus").asInt() + " GPUs)" : "";
            show(details, List.of(job + " " + Render.text(details, "state") + where + ": " + name() + " requested"));
            return ExitCodes.OK;
        }
    }

    @Command(name = "preempt", mixinStandardHelpOptions = true,
            description = "Checkpoint and stop a running job; it waits until the planner places it again.")
    static final class Preempt extends Operation {

        @Override
        String name() {
            return "preempt";
        }

        @Override
        ObjectNode body() {
            return null;
        }
    }

    @Command(name = "resize", mixinStandardHelpOptions = true,
            description = "Give an elastic job another number of GPUs: it checkpoints and resumes with them.")
    static final class Resize extends Operation {

        @Option(names = "--gpus", required = true, paramLabel = "N", description = "GPUs from now on (1 to the partition's).")
        int gpus;

        @Override
        String name() {
            return "resize";
        }

        @Override
        ObjectNode body() {
            return root().mapper().createObjectNode().put("gpus", gpus);
        }
    }

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = {"Move a job to another partition or site: it checkpoints, stops and resumes there from that checkpoint.",
                    "Give --partition, --to SITE, or both (a site alone means its default partition)."})
    static final class Migrate extends Operation {

        @Option(names = {"--to", "--site"}, paramLabel = "SITE", description = "The site to move to (a provider run with --sites).")
        String site;

        @Option(names = "--partition", paramLabel = "PARTITION", description = "The partition to move to.")
        String partition;

        @Override
        String name() {
            return "migrate";
        }

        @Override
        ObjectNode body() {
            if (site == null && partition == null) {
                throw new UsageProblem("say where to: continuum training migrate " + job + " --to SITE and/or --partition PARTITION");
            }
            ObjectNode body = root().mapper().createObjectNode();
            if (site != null) {
                body.put("site", site);
            }
            if (partition != null) {
                body.put("partition", partition);
            }
            return body;
        }
    }
}
