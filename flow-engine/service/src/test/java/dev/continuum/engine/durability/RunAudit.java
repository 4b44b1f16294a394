package dev.continuum.engine.durability;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Checks what a user would check after an outage: every run succeeded, each run's log shows every
 * state once and in order, and every echo action took effect exactly once at the provider.
 */
final class RunAudit {

    private RunAudit() {}

    /** Everything that is wrong, one line each; empty when the runs ran exactly once. */
    static List<String> problems(EngineApi api, Collection<String> runIds, DurabilityFlow flow, EffectsLog effects) {
        List<String> problems = new ArrayList<>();
        Set<String> expectedRequestIds = new HashSet<>();
        for (String runId : runIds) {
            String status = api.status(runId);
            if (!status.equals("SUCCEEDED")) {
                problems.add("run " + runId + " is " + status + ": " + api.run(runId).path("details"));
            }
            List<EngineApi.LogLine> log = api.log(runId);
            List<String> milestones = log.stream().map(DurabilityFlow::milestone).filter(Objects::nonNull).toList();
            boolean clean = flow.ordered() ? milestones.equals(flow.milestones())
                    : milestones.stream().sorted().toList().equals(flow.milestones().stream().sorted().toList());
            if (!clean) {
                problems.add("run " + runId + " log differs from one clean pass: " + differences(milestones, flow.milestones()));
            }
            for (EngineApi.LogLine line : log) {
                if (line.code().equals("ActionStarted") && flow.echoStates().contains(line.stateName())) {
                    expectedRequestIds.add(line.details().path("request_id").asText());
                }
            }
        }
        Map<String, Integer> byRequestId = effects.effectsByRequestId();
        for (String requestId : expectedRequestIds) {
            int count = byRequestId.getOrDefault(requestId, 0);
            if (count != 1) {
                problems.add("echo request " + requestId + " took effect " + count + " times");
            }
        }
        byRequestId.keySet().stream().filter(id -> !expectedRequestIds.contains(id))
                .forEach(id -> problems.add("echo effect " + id + " belongs to no logged action of these runs"));
        return problems;
    }

    /** Which milestones occur other than once, or the whole log when only the order is off. */
    private static String differences(List<String> actual, List<String> expected) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        expected.forEach(m -> counts.put(m, 0));
        actual.forEach(m -> counts.merge(m, 1, Integer::sum));
        List<String> wrong = new ArrayList<>();
        counts.forEach((milestone, count) -> {
            if (count != 1) {
                wrong.add(milestone + " x" + count);
            }
        });
        return wrong.isEmpty() ? "out of order: " + actual : String.join(", ", wrong);
    }
}
