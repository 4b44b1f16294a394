package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's in-process built-ins across an engine kill (issue 32 item 4c): runs whose Map calls the engine's own
 * {@code notify} (a webhook, an effect outside the engine) for each item are killed with SIGKILL after some notify
 * actions exist but before the runs committed their answers. The other engine takes the runs over and calls its own
 * in-process notify again with the same request_ids; each call must find the action the dead engine started (the
 * built-ins keep their actions in the shared database, ADR 0032), so every (run, item) webhook is one notify action,
 * delivered, and every run SUCCEEDED with that action's id.
 * <p>
 * A kill can also land between a webhook's arrival and the dead engine's record that it arrived; the adopting engine
 * then resumes that send with the same {@code X-Continuum-Action-Id} (at least once for an interrupted send, ADR 0032,
 * which a receiver deduplicates by that header). The test counts those resends apart: a second action id for an item
 * is the failure it looks for. With notify's actions kept in each engine's memory instead (tried 2026-12-07 by a
 * local change to BuiltinProvidersRoutes), the 4 items caught delivered-but-unrecorded were each sent again under a
 * second action id and the test failed.
 */
class BuiltinCallOnceIT {

    private static final int RUNS_PER_ROUND = 12;
    private static final int ITEMS_PER_RUN = 4;
    private static final int MAX_ROUNDS = 4;
    /**
     * The kill comes once this many webhooks have arrived whose run has not recorded the notify that sent them (or
     * after 30 s): the takeover then repeats calls whose effect already happened, which a store of one engine's
     * own would make a second time.
     */
    private static final int SENDS_TO_CATCH = 3;
    /**
     * Engines sharing a database serve one public URL (a load balancer's), so the flow's ActionUrl names every engine's
     * built-in notify at once and whichever holds the run calls it in process. Nothing listens here: nothing must call it.
     */
    private static final String SHARED_URL = "http://engines.continuum.invalid";

    /**
     * Runs of the flow with a branch whose stored state still waits for the answer to a notify call (its action has
     * no actionId yet): the run logged the call it would make, may have made it, and has not committed the answer. A
     * kill now leaves the call to be made again by whoever takes the run over.
     */
    private static String runsMidCall(String flow) {
        return "SELECT count(DISTINCT r.id) " + midCall(flow);
    }

    /**
     * The items of those unanswered notify calls: one whose webhook has arrived was made, and its effect happened.
     * Read off the runs alone, so that it works whichever store the built-in keeps its actions in.
     */
    private static String itemsMidCall(String flow) {
        return "SELECT b.value->'waiting'->'action'->'body'->'payload'->>'item' " + midCall(flow);
    }

    private static String midCall(String flow) {
        return """
                FROM runs r CROSS JOIN LATERAL jsonb_each(r.state->'branches') b
                WHERE r.flow_id = '%s' AND b.value->'waiting'->'action' IS NOT NULL
                  AND b.value->'waiting'->'action'->>'actionId' IS NULL""".formatted(flow);
    }

    @Test
    void shouldSendOneWebhookPerRunItemWhenTheEngineIsKilledBetweenTheCallAndItsCommit() throws IOException {
        // item -> the X-Continuum-Action-Id of each delivery of it
        Map<String, List<String>> deliveries = new ConcurrentHashMap<>();
        AtomicInteger deliveryCount = new AtomicInteger();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setExecutor(Executors.newFixedThreadPool(4));
        receiver.createContext("/hook", exchange -> {
            JsonNode payload = EngineApi.JSON.readTree(exchange.getRequestBody());
            deliveries.computeIfAbsent(payload.path("item").asText(), item -> new CopyOnWriteArrayList<>())
                    .add(exchange.getRequestHeaders().getFirst("X-Continuum-Action-Id"));
            deliveryCount.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        String hook = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
        try (DurabilityRig rig = DurabilityRig.create("builtin-call-once")
                .withEngineProperties(Map.of("continuum.self-url", SHARED_URL, "continuum.providers.builtin-enabled", "true"))) {
            List<EngineInstance> engines = rig.startEngines("A", "B");
            EngineInstance a = engines.get(0);
            EngineInstance b = engines.get(1);
            String flow = a.api().publishFlow("notify per item", notifyEach(SHARED_URL + "/providers/notify", hook));
            String itemsMidCall = itemsMidCall(flow);

            long caughtMidCall = 0;
            long sentMidCall = 0;
            for (int round = 1; round <= MAX_ROUNDS && sentMidCall == 0; round++) {
                EngineInstance victim = a;
                CompletableFuture<Boolean> killed = CompletableFuture.supplyAsync(() -> {
                    boolean inWindow = rig.awaitRows(itemsMidCall,
                            items -> delivered(deliveries, items) >= SENDS_TO_CATCH, Duration.ofSeconds(30));
                    victim.kill();
                    return inWindow;
                });
                int started = DurabilityRig.startRunsUntilKilled(victim, flow, round, RUNS_PER_ROUND, BuiltinCallOnceIT::items, killed);
                boolean seen = killed.join();
                // read at once: B takes A's runs over only when their leases run out
                sentMidCall = delivered(deliveries, rig.strings(itemsMidCall));
                caughtMidCall = rig.number(runsMidCall(flow));
                rig.say("round %d: %d runs started on A; kill -9 engine A %s: %d webhooks received, "
                                + "%d runs had started a notify and not recorded it, %d such notifies already delivered; "
                                + "%d runs still leased by A", round, started,
                        seen ? "as " + SENDS_TO_CATCH + " unrecorded notifies had been delivered" : "after 30 s",
                        deliveryCount.get(), caughtMidCall,
                        sentMidCall, rig.liveLeases().values().stream().filter("A"::equals).count());
                if (sentMidCall == 0 && round < MAX_ROUNDS) {
                    a = rig.restart(victim);
                }
            }

            // every run the database has: a start whose answer the kill cut off may still have made one
            List<String> runs = rig.strings("SELECT id::text FROM runs WHERE flow_id = '" + flow + "'");
            Duration rest = rig.awaitFinished(b.api(), runs, Duration.ofSeconds(180));
            DurabilityRig.pause(2000); // a second webhook, were one sent, would be on its way by now
            List<String> problems = new ArrayList<>();
            int items = check(b.api(), runs, deliveries, problems);
            long itemsWithTwoActions = deliveries.values().stream().filter(ids -> Set.copyOf(ids).size() > 1).count();
            long resends = deliveries.values().stream().mapToLong(ids -> ids.size() - Set.copyOf(ids).size()).sum();
            Set<String> actionIds = new HashSet<>();
            deliveries.values().forEach(actionIds::addAll);
            rig.say("B finished %d runs in %d ms: %d items, caught mid-call %d runs (%d of their notifies delivered), %d notify actions delivered, %d deliveries, "
                            + "%d items sent under two action ids (duplicates), %d resends of an interrupted send (same action id); "
                            + "%d problems", runs.size(), rest.toMillis(), items, caughtMidCall, sentMidCall, actionIds.size(), deliveryCount.get(),
                    itemsWithTwoActions, resends, problems.size());
            problems.stream().limit(20).forEach(problem -> rig.say("  %s", problem));

            assertThat(sentMidCall).as("webhooks delivered for notifies their runs on A had not recorded when A died"
                    + " (the precondition: otherwise no takeover repeats a notify call whose effect happened)").isPositive();
            assertThat(problems).as("runs and their webhooks after the kill").isEmpty();
            assertThat(itemsWithTwoActions).as("items whose webhook was sent by two notify actions").isZero();
            assertThat(deliveries.keySet()).as("items delivered").hasSize(items);
            assertThat(actionIds).as("notify actions delivered, one per (run, item)").hasSize(items);
        } finally {
            receiver.stop(0);
        }
    }

    /** How many of these items have had a webhook delivered. */
    private static long delivered(Map<String, List<String>> deliveries, List<String> items) {
        return items.stream().filter(deliveries::containsKey).count();
    }

    /**
     * Checks every run as a user would read it off the API against the webhooks received: SUCCEEDED, each of its items
     * delivered under exactly one action id, that id the one its result names. Returns how many items the runs have.
     */
    private static int check(EngineApi api, List<String> runs, Map<String, List<String>> deliveries, List<String> problems) {
        int items = 0;
        Set<String> known = new HashSet<>();
        for (String runId : runs) {
            JsonNode run = api.run(runId);
            if (!run.path("status").asText().equals("SUCCEEDED")) {
                problems.add("run " + runId + " is " + run.path("status").asText() + ": " + run.path("details"));
                continue;
            }
            JsonNode output = run.path("details").path("output");
            JsonNode results = output.path("results");
            int index = 0;
            for (JsonNode itemNode : output.path("items")) {
                String item = itemNode.asText();
                items++;
                known.add(item);
                List<String> delivered = deliveries.getOrDefault(item, List.of());
                Set<String> actionIds = new HashSet<>(delivered);
                String answered = results.path(index++).path("action_id").asText();
                if (actionIds.size() != 1) {
                    problems.add("run " + runId + " item " + item + " delivered " + delivered.size() + " times under action ids "
                            + actionIds + " (its result names " + answered + ")");
                } else if (!actionIds.contains(answered)) {
                    problems.add("run " + runId + " item " + item + " delivered as " + actionIds + " but its result names " + answered);
                }
            }
            if (index != ITEMS_PER_RUN) {
                problems.add("run " + runId + " has " + index + " items");
            }
        }
        Map<String, List<String>> stray = new TreeMap<>(deliveries);
        stray.keySet().removeAll(known);
        if (!stray.isEmpty()) {
            problems.add("webhooks for items of no SUCCEEDED run: " + stray);
        }
        return items;
    }

    /** A Map whose every item is one notify Action (the webhook carries the item): one turn starts all of a run's sends. */
    private static JsonNode notifyEach(String notifyUrl, String hook) {
        return DurabilityFlow.json("""
                {"StartAt":"EachItem","States":{"EachItem":{"Type":"Map","ItemsPath":"$.items","MaxConcurrency":%d,
                  "ItemSelector":{"item.$":"$$.Map.Item.Value"},
                  "Iterator":{"StartAt":"Notify","States":{
                    "Notify":{"Type":"Action","ActionUrl":"%s","Parameters":{"url":"%s","payload":{"item.$":"$.item"}},
                              "WaitTime":600,"End":true}}},
                  "ResultPath":"$.results","End":true}}}""".formatted(ITEMS_PER_RUN, notifyUrl, hook));
    }

    private static ObjectNode items(int round, int run) {
        ObjectNode input = EngineApi.JSON.createObjectNode();
        ArrayNode items = input.putArray("items");
        for (int i = 0; i < ITEMS_PER_RUN; i++) {
            items.add("r" + round + "-n" + run + "-i" + i);
        }
        return input;
    }
}
