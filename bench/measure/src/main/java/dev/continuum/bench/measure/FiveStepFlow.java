package dev.continuum.bench.measure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;

/**
 * The flow issue 3 measures: Pass → Action echo → Choice → Action sleep → Pass, with both actions
 * served by the engine's own built-in providers so the numbers are the engine's and not a network's.
 */
public final class FiveStepFlow {

    /** Action states in the flow; per-Action overhead divides by this. */
    public static final int ACTIONS = 2;

    /** States a succeeded run enters (Prepare, Echo, Check, Nap, Done): its transitions. */
    public static final int STATES = 5;

    private FiveStepFlow() {}

    /** The flow definition with ActionUrls under {@code apiBase}/providers; the sleep lasts {@code sleepSeconds}. */
    public static JsonNode definition(String apiBase, BigDecimal sleepSeconds) {
        String providers = trimSlash(apiBase) + "/providers/";
        ObjectNode flow = new ObjectMapper().createObjectNode();
        flow.put("StartAt", "Prepare");
        ObjectNode states = flow.putObject("States");
        ObjectNode prepare = states.putObject("Prepare");
        prepare.put("Type", "Pass").put("ResultPath", "$.prepared").put("Next", "Echo");
        prepare.putObject("Parameters").put("message.$", "$.message");
        ObjectNode echo = states.putObject("Echo");
        echo.put("Type", "Action").put("ActionUrl", providers + "echo").put("ResultPath", "$.echoed").put("Next", "Check");
        echo.putObject("Parameters").put("text.$", "$.prepared.message");
        ObjectNode check = states.putObject("Check");
        check.put("Type", "Choice").put("Default", "Broken");
        check.putArray("Choices").addObject()
                .put("Variable", "$.echoed.status").put("StringEquals", "SUCCEEDED").put("Next", "Nap");
        ObjectNode nap = states.putObject("Nap");
        nap.put("Type", "Action").put("ActionUrl", providers + "sleep").put("ResultPath", "$.napped").put("Next", "Done");
        nap.putObject("Parameters").put("seconds", sleepSeconds);
        states.putObject("Done").put("Type", "Pass").put("End", true);
        states.putObject("Broken").put("Type", "Fail").put("Error", "EchoFailed").put("Cause", "echo did not succeed");
        return flow;
    }

    /** The run input: a small message, so state size does not dominate. */
    public static JsonNode input(int runNumber) {
        return new ObjectMapper().createObjectNode().put("message", "bench run " + runNumber);
    }

    public static String trimSlash(String base) {
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }
}
