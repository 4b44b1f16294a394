package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ContinuumCommand;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.UsageProblem;
import dev.continuum.cli.client.EngineClient;
import dev.continuum.cli.files.JsonFiles;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code continuum trigger …}: the /triggers API (docs/triggers.md). */
@Command(name = "trigger", mixinStandardHelpOptions = true,
        description = "Manage triggers: sources (api, webhook, timer) that start runs of a flow on their own.",
        subcommands = {TriggerCommand.Create.class, TriggerCommand.ListTriggers.class, TriggerCommand.Show.class,
                TriggerCommand.Pause.class, TriggerCommand.Resume.class, TriggerCommand.Delete.class,
                TriggerCommand.Test.class, TriggerCommand.Events.class})
public final class TriggerCommand implements Runnable {

    @ParentCommand
    ContinuumCommand root;

    @Override
    public void run() {
        throw new UsageProblem("name a trigger command: create, list, show, pause, resume, delete, test or events");
    }

    /** What each trigger command shares: the client, and text or JSON output (the global {@code --output json} or {@code --json}). */
    abstract static class Sub implements Callable<Integer> {

        @ParentCommand
        TriggerCommand parent;

        EngineClient client() {
            return parent.root.client();
        }

        static String path(String id) {
            return "/triggers/" + EngineClient.pathSegment(id);
        }

        Integer show(JsonNode answer, List<String> text) {
            if (parent.root.json()) {
                parent.root.out().println(Render.pretty(answer));
            } else {
                text.forEach(parent.root.out()::println);
            }
            return ExitCodes.OK;
        }

        static String line(JsonNode t) {
            return String.join("  ", Render.text(t, "id"), Render.text(t, "status"), t.at("/source/type").asText(),
                    Render.text(t, "flow_id"), Render.text(t, "title"));
        }

        static String outcome(JsonNode o) {
            return Render.text(o, "outcome") + (o.hasNonNull("run_id") ? " run " + o.get("run_id").asText() : "")
                    + (o.hasNonNull("reason") ? ": " + o.get("reason").asText() : "")
                    + (o.has("input") ? " input " + Render.compact(o.get("input")) : "");
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a trigger from a JSON file or text; prints its id.")
    static final class Create extends Sub {
        @Parameters(paramLabel = "FILE|JSON", description = "The trigger document (docs/triggers.md), or - for standard input.")
        String document;

        @Override
        public Integer call() {
            JsonNode created = client().call("POST", "/triggers", JsonFiles.fileOrJson(document, parent.root.mapper()));
            List<String> text = new ArrayList<>(List.of(Render.text(created, "id")));
            if (created.at("/webhook/secret").isTextual()) {
                text.add("webhook " + created.at("/webhook/path").asText() + " secret " + created.at("/webhook/secret").asText()
                        + " (shown once: keep it now)");
            }
            return show(created, text);
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The triggers you own, administer or view.")
    static final class ListTriggers extends Sub {
        @Option(names = "--limit", defaultValue = "100", description = "At most this many (1-500).")
        int limit;

        @Override
        public Integer call() {
            JsonNode page = client().call("GET", "/triggers?limit=" + limit, null);
            List<String> text = new ArrayList<>();
            page.path("triggers").forEach(t -> text.add(line(t)));
            return show(page, text);
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One trigger.")
    static final class Show extends Sub {
        @Parameters(paramLabel = "TRIGGER_ID")
        String id;

        @Override
        public Integer call() {
            JsonNode t = client().call("GET", path(id), null);
            return show(t, List.of(line(t), "filter: " + Render.text(t, "filter"),
                    "input template: " + (t.has("input_template") ? Render.compact(t.get("input_template")) : "(the event)"),
                    "failures in a row: " + t.path("consecutive_failures").asInt()));
        }
    }

    /** pause and resume: one POST, answered with the trigger. */
    abstract static class Switch extends Sub {
        @Parameters(paramLabel = "TRIGGER_ID")
        String id;

        abstract String action();

        @Override
        public Integer call() {
            JsonNode t = client().call("POST", path(id) + "/" + action(), null);
            return show(t, List.of(line(t)));
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true, description = "Pause: events start nothing until resumed.")
    static final class Pause extends Switch {
        String action() {
            return "pause";
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused trigger.")
    static final class Resume extends Switch {
        String action() {
            return "resume";
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a trigger and its events.")
    static final class Delete extends Sub {
        @Parameters(paramLabel = "TRIGGER_ID")
        String id;

        @Override
        public Integer call() {
            client().call("DELETE", path(id), null);
            return show(parent.root.mapper().createObjectNode().put("deleted", id), List.of("deleted " + id));
        }
    }

    @Command(name = "test", mixinStandardHelpOptions = true,
            description = "Fire the trigger with a sample event; --dry-run only shows the run input it would make.")
    static final class Test extends Sub {
        @Parameters(index = "0", paramLabel = "TRIGGER_ID")
        String id;

        @Option(names = {"-e", "--event"}, required = true, paramLabel = "FILE|JSON", description = "The sample event.")
        String event;

        @Option(names = "--dry-run", description = "Start nothing and record nothing.")
        boolean dryRun;

        @Override
        public Integer call() {
            ObjectNode body = parent.root.mapper().createObjectNode();
            body.set("event", JsonFiles.fileOrJson(event, parent.root.mapper()));
            body.put("dry_run", dryRun);
            JsonNode answer = client().call("POST", path(id) + "/test", body);
            return show(answer, List.of(outcome(answer)));
        }
    }

    @Command(name = "events", mixinStandardHelpOptions = true, description = "The trigger's latest events and what became of each.")
    static final class Events extends Sub {
        @Parameters(paramLabel = "TRIGGER_ID")
        String id;

        @Option(names = "--limit", defaultValue = "50", description = "At most this many (1-500).")
        int limit;

        @Override
        public Integer call() {
            JsonNode page = client().call("GET", path(id) + "/events?limit=" + limit, null);
            List<String> text = new ArrayList<>();
            page.path("events").forEach(e -> text.add(Render.text(e, "received_at") + "  " + Render.text(e, "dedup_key")
                    + "  " + outcome(e)));
            return show(page, text);
        }
    }
}
