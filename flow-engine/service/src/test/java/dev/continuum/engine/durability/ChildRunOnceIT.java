package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flows run flows across engine kills (issue 32): parents that each start several child runs of another flow in one
 * turn (a Map over the child's action URL) are killed with SIGKILL after some children exist but before the parents
 * committed that they started them. The other engine takes the parents over and calls the child flow again with the
 * same request_ids; each call must find the child already started, so every parent action attempt has exactly one
 * child run, every child's echo took effect once, and every parent SUCCEEDED with its children's outputs.
 */
class ChildRunOnceIT {

    private static final int PARENTS_PER_ROUND = 12;
    private static final int CHILDREN_PER_PARENT = 4;
    private static final int MAX_ROUNDS = 4;
    /** The kill comes once this many parents are between starting a child and recording it (or after 30 s). */
    private static final int PARENTS_TO_CATCH = 3;
    /**
     * Engines sharing a database serve one public URL (a load balancer's), so a flow's action URL names every engine
     * at once and whichever holds the parent calls the child in process. Nothing listens here: nothing must call it.
     */
    private static final String SHARED_URL = "http://engines.continuum.invalid";

    /**
     * Parents with a child run whose stored state still waits for the answer to that child's start (its action has no
     * action_id yet): the parent logged the call it would make and made it, and has not committed the answer. A kill
     * now leaves the call to be made again by whoever takes the parent over.
     */
    private static final String PARENTS_MID_CALL = """
            SELECT count(DISTINCT l.parent_run_id) FROM run_links l JOIN runs c ON c.id = l.child_run_id JOIN runs p ON p.id = l.parent_run_id
            WHERE EXISTS (SELECT 1 FROM jsonb_each(p.state->'branches') b
                          WHERE b.value->'waiting'->>'token' = l.parent_token
                            AND b.value->'waiting'->'action'->>'actionId' IS NULL)""";

    @Test
    void shouldStartExactlyOneChildRunPerParentActionAttemptWhenTheEngineIsKilledMidCall() {
        try (DurabilityRig rig = DurabilityRig.create("child-once")
                .withEngineProperties(Map.of("continuum.self-url", SHARED_URL))) {
            List<EngineInstance> engines = rig.startEngines("A", "B");
            EngineInstance a = engines.get(0);
            EngineInstance b = engines.get(1);
            String child = a.api().publishFlow("child: echo then rest", child(rig.providersUrl()));
            String parent = a.api().publishFlow("parent: a child per item", parent(SHARED_URL + "/flows/" + child + "/actions"));

            long caughtMidCall = 0;
            for (int round = 1; round <= MAX_ROUNDS && caughtMidCall == 0; round++) {
                EngineInstance victim = a;
                CompletableFuture<Boolean> killed = CompletableFuture.supplyAsync(() -> {
                    boolean inWindow = rig.awaitCount(PARENTS_MID_CALL, PARENTS_TO_CATCH, Duration.ofSeconds(30));
                    victim.kill();
                    return inWindow;
                });
                int started = DurabilityRig.startRunsUntilKilled(victim, parent, round, PARENTS_PER_ROUND, ChildRunOnceIT::items, killed);
                boolean seen = killed.join();
                caughtMidCall = rig.number(PARENTS_MID_CALL);
                rig.say("round %d: %d parents started on A; kill -9 engine A %s: %d child runs, %d parents had started one "
                                + "and not recorded it; %d runs still leased by A", round, started,
                        seen ? "as " + PARENTS_TO_CATCH + " parents were mid-call" : "after 30 s", childRuns(rig, child), caughtMidCall,
                        rig.liveLeases().values().stream().filter("A"::equals).count());
                if (caughtMidCall == 0 && round < MAX_ROUNDS) {
                    a = rig.restart(victim);
                }
            }

            // every parent the database has: a start whose answer the kill cut off may still have made one
            List<String> parents = runsOf(rig, parent);
            Duration rest = rig.awaitFinished(b.api(), parents, Duration.ofSeconds(180));
            List<String> problems = problems(rig, b.api(), parents, child);
            rig.say("B finished %d parents in %d ms; %d child runs, %d echo effects; %d problems", parents.size(),
                    rest.toMillis(), childRuns(rig, child), rig.effects().size(), problems.size());

            assertThat(caughtMidCall).as("parents on A that had started a child and not recorded it when A died"
                    + " (the precondition: otherwise no takeover re-sends a child call)").isPositive();
            assertThat(problems).as("parents and their children after the kill").isEmpty();
            assertThat(childRuns(rig, child)).isEqualTo((long) parents.size() * CHILDREN_PER_PARENT);
            assertThat(rig.effects().size()).as("echo effects, one per child run").isEqualTo(parents.size() * CHILDREN_PER_PARENT);
        }
    }

    /** Everything wrong with the parents and their children, one line each, as a user would read it off the API. */
    private static List<String> problems(DurabilityRig rig, EngineApi api, List<String> parents, String childFlow) {
        List<String> problems = new ArrayList<>();
        for (String parentRun : parents) {
            JsonNode run = api.run(parentRun);
            if (!run.path("status").asText().equals("SUCCEEDED")) {
                problems.add("parent " + parentRun + " is " + run.path("status").asText() + ": " + run.path("details"));
                continue;
            }
            Set<String> children = new HashSet<>();
            run.path("child_run_ids").forEach(id -> children.add(id.asText()));
            Set<String> answered = new HashSet<>();
            run.path("details").path("output").path("results").forEach(result -> answered.add(result.path("action_id").asText()));
            if (children.size() != CHILDREN_PER_PARENT || !children.equals(answered)) {
                problems.add("parent " + parentRun + " has child runs " + children + " but its actions were answered by " + answered);
            }
            for (String childRun : children) {
                JsonNode linked = api.run(childRun);
                if (!parentRun.equals(linked.path("parent_run_id").asText()) || !linked.path("status").asText().equals("SUCCEEDED")
                        || !childFlow.equals(linked.path("flow_id").asText())) {
                    problems.add("child " + childRun + " of " + parentRun + ": " + linked.path("status").asText()
                            + ", parent " + linked.path("parent_run_id").asText());
                }
            }
        }
        long attemptsWithTwoChildren = rig.number("SELECT count(*) FROM (SELECT l.parent_run_id, l.request_id FROM run_links l "
                + "JOIN runs c ON c.id = l.child_run_id GROUP BY 1, 2 HAVING count(*) > 1) twice");
        if (attemptsWithTwoChildren > 0) {
            problems.add(attemptsWithTwoChildren + " parent action attempts have more than one child run");
        }
        rig.effects().effectsByRequestId().forEach((requestId, count) -> {
            if (count != 1) {
                problems.add("child echo " + requestId + " took effect " + count + " times");
            }
        });
        return problems;
    }

    private static List<String> runsOf(DurabilityRig rig, String flow) {
        return rig.strings("SELECT id::text FROM runs WHERE flow_id = '" + flow + "'");
    }

    private static long childRuns(DurabilityRig rig, String childFlow) {
        return rig.number("SELECT count(*) FROM runs WHERE flow_id = '" + childFlow + "'");
    }

    /** Echo (an effect the provider counts) then a short Wait, so the children outlive the kill's turn. */
    private static JsonNode child(String providersUrl) {
        return DurabilityFlow.json("""
                {"StartAt":"Echo","States":{
                  "Echo":{"Type":"Action","ActionUrl":"%s/echo","Parameters":{"item.$":"$.item"},"ResultPath":"$.echoed","Next":"Rest"},
                  "Rest":{"Type":"Wait","Seconds":1,"End":true}}}""".formatted(providersUrl));
    }

    /** A Map whose every item is one Action on the child flow: one turn starts all of a parent's children. */
    private static JsonNode parent(String childUrl) {
        return DurabilityFlow.json("""
                {"StartAt":"EachItem","States":{"EachItem":{"Type":"Map","ItemsPath":"$.items","MaxConcurrency":%d,
                  "ItemSelector":{"item.$":"$$.Map.Item.Value"},
                  "Iterator":{"StartAt":"Call","States":{
                    "Call":{"Type":"Action","ActionUrl":"%s","Parameters":{"item.$":"$.item"},"WaitTime":600,"End":true}}},
                  "ResultPath":"$.results","End":true}}}""".formatted(CHILDREN_PER_PARENT, childUrl));
    }

    private static ObjectNode items(int round, int parent) {
        ObjectNode input = EngineApi.JSON.createObjectNode();
        ArrayNode items = input.putArray("items");
        for (int i = 0; i < CHILDREN_PER_PARENT; i++) {
            items.add("r" + round + "-p" + parent + "-i" + i);
        }
        return input;
    }
}
