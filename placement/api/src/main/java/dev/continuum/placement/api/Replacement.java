package dev.continuum.placement.api;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The planner placed a job again after its site {@code lostSite} went away: {@code site} is where it runs now, or
 * null when no site can take it ({@code decision} then says why per site). {@code decision} is the new decision in
 * the planner's trace JSON, as in {@link DecisionView#decision()}.
 */
public record Replacement(String id, String lostSite, String site, JsonNode decision) {

    public boolean placed() {
        return site != null;
    }
}
