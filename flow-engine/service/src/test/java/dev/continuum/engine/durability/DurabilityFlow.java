package dev.continuum.engine.durability;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Set;

/**
 * A flow for durability tests and what its log must show when it ran exactly once: every state
 * started and completed once, in order. Echo states are the ones whose effects are counted.
 *
 * @param milestones the expected log, one "code state" per entry, without ActionPolled (polls may repeat)
 * @param ordered    whether the log must follow that order (parallel branches interleave freely)
 */
record DurabilityFlow(JsonNode definition, List<String> milestones, boolean ordered, Set<String> echoStates) {

    static final Set<String> ECHO_STATES = Set.of("Acquire", "Analyse", "Store", "Publish");

    /** A flow definition written as JSON text in a test. */
    static JsonNode json(String definition) {
        try {
            return EngineApi.JSON.readTree(definition);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the test flow is not JSON", e);
        }
    }

    /**
     * Pass, echo, sleep (an asynchronous action the engine polls or is called back about), echo,
     * Wait (an engine timer), echo, Choice, echo, Pass: nine states, four counted effects.
     */
    static DurabilityFlow pipeline(String providersUrl, int sleepSeconds, int waitSeconds) {
        String definition = """
                {"StartAt":"Prepare","States":{
                  "Prepare":{"Type":"Pass","Parameters":{"sample.$":"$.sample"},"ResultPath":"$.job","Next":"Acquire"},
                  "Acquire":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"acquire","job.$":"$.job"},
                             "ResultPath":"$.acquired","Next":"Settle"},
                  "Settle":{"Type":"Action","ActionUrl":"%1$s/sleep","Parameters":{"seconds":%2$d},
                            "ResultPath":"$.settled","Next":"Analyse"},
                  "Analyse":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"analyse","job.$":"$.job"},
                             "ResultPath":"$.analysed","Next":"Cool"},
                  "Cool":{"Type":"Wait","Seconds":%3$d,"Next":"Store"},
                  "Store":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"store","job.$":"$.job"},
                           "ResultPath":"$.stored","Next":"Check"},
                  "Check":{"Type":"Choice","Choices":[{"Variable":"$.stored.status","StringEquals":"SUCCEEDED","Next":"Publish"}],
                           "Default":"Broken"},
                  "Publish":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"publish","job.$":"$.job"},
                             "ResultPath":"$.published","Next":"Done"},
                  "Done":{"Type":"Pass","End":true},
                  "Broken":{"Type":"Fail","Error":"StoreFailed","Cause":"the store step did not succeed"}}}"""
                .formatted(providersUrl, sleepSeconds, waitSeconds);
        List<String> milestones = List.of(
                "FlowStarted",
                "PassCompleted Prepare",
                "ActionStarted Acquire", "ActionCompleted Acquire",
                "ActionStarted Settle", "ActionCompleted Settle",
                "ActionStarted Analyse", "ActionCompleted Analyse",
                "WaitStarted Cool", "WaitCompleted Cool",
                "ActionStarted Store", "ActionCompleted Store",
                "ChoiceCompleted Check",
                "ActionStarted Publish", "ActionCompleted Publish",
                "PassCompleted Done",
                "FlowSucceeded Done");
        try {
            return new DurabilityFlow(EngineApi.JSON.readTree(definition), milestones, true, ECHO_STATES);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the test flow is not JSON", e);
        }
    }

    /**
     * Three echo Actions (each a counted side effect), a short Wait (an engine timer) between each, so a kill at a
     * random moment finds runs calling, committing, or asleep.
     */
    static DurabilityFlow threeActions(String providersUrl, int waitSeconds) {
        String definition = """
                {"StartAt":"Acquire","States":{
                  "Acquire":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"acquire","sample.$":"$.sample"},
                             "ResultPath":"$.acquired","Next":"Rest"},
                  "Rest":{"Type":"Wait","Seconds":%2$d,"Next":"Analyse"},
                  "Analyse":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"analyse","sample.$":"$.sample"},
                             "ResultPath":"$.analysed","Next":"Cool"},
                  "Cool":{"Type":"Wait","Seconds":%2$d,"Next":"Store"},
                  "Store":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"store","sample.$":"$.sample"},
                           "ResultPath":"$.stored","End":true}}}"""
                .formatted(providersUrl, waitSeconds);
        List<String> milestones = List.of(
                "FlowStarted",
                "ActionStarted Acquire", "ActionCompleted Acquire",
                "WaitStarted Rest", "WaitCompleted Rest",
                "ActionStarted Analyse", "ActionCompleted Analyse",
                "WaitStarted Cool", "WaitCompleted Cool",
                "ActionStarted Store", "ActionCompleted Store",
                "FlowSucceeded Store");
        try {
            return new DurabilityFlow(EngineApi.JSON.readTree(definition), milestones, true, Set.of("Acquire", "Analyse", "Store"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the test flow is not JSON", e);
        }
    }

    /**
     * A Parallel state: one branch calls the slow provider, the other two echoes in a row, so
     * the second branch can move on while the first branch's call is still in flight.
     */
    static DurabilityFlow fork(String providersUrl, String slowUrl) {
        String definition = """
                {"StartAt":"Fork","States":{
                  "Fork":{"Type":"Parallel","ResultPath":"$.forked","Next":"Done","Branches":[
                    {"StartAt":"Slow","States":{
                      "Slow":{"Type":"Action","ActionUrl":"%2$s","Parameters":{"step":"slow"},"End":true}}},
                    {"StartAt":"Quick","States":{
                      "Quick":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"quick"},"Next":"Then"},
                      "Then":{"Type":"Action","ActionUrl":"%1$s/echo","Parameters":{"step":"then"},"End":true}}}]},
                  "Done":{"Type":"Pass","End":true}}}"""
                .formatted(providersUrl, slowUrl);
        List<String> milestones = List.of(
                "FlowStarted",
                "ParallelStarted Fork",
                "ActionStarted Slow", "ActionCompleted Slow",
                "ActionStarted Quick", "ActionCompleted Quick",
                "ActionStarted Then", "ActionCompleted Then",
                "ParallelCompleted Fork",
                "PassCompleted Done",
                "FlowSucceeded Done");
        try {
            return new DurabilityFlow(EngineApi.JSON.readTree(definition), milestones, false, Set.of("Quick", "Then"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the test flow is not JSON", e);
        }
    }

    /** A log entry as a milestone, or null for entries that may legitimately repeat. */
    static String milestone(EngineApi.LogLine line) {
        if (line.code().equals("ActionPolled")) {
            return null;
        }
        return line.stateName() == null ? line.code() : line.code() + " " + line.stateName();
    }
}
