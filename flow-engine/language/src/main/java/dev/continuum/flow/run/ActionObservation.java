package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What an action provider said about an action (the Globus action status document).
 *
 * @param status ACTIVE, INACTIVE, SUCCEEDED or FAILED
 */
public record ActionObservation(String actionId, String status, JsonNode details, String displayStatus) {
}
