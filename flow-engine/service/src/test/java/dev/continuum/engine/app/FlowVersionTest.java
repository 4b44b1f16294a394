package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class FlowVersionTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final UUID ID = UUID.randomUUID();

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static FlowVersion version(int n, String title, String roles, String definition, boolean metadataKnown) {
        return new FlowVersion(new FlowRecord(ID, metadataKnown ? "ada" : null, n, metadataKnown ? title : null, null, null,
                metadataKnown ? List.of() : null, metadataKnown ? json(roles) : null, json(definition), null,
                Instant.EPOCH, Instant.EPOCH.plusSeconds(n)), metadataKnown ? "ada" : null, metadataKnown);
    }

    @Test
    void shouldNameTheRoleListThatChangedAndNotTheOnesThatStayed() {
        FlowVersion before = version(1, "t", "{\"flow_viewers\":[\"bob\"]}", "{\"StartAt\":\"A\"}", true);
        FlowVersion after = version(2, "t", "{\"flow_viewers\":[\"bob\"],\"flow_starters\":[\"eve\"]}", "{\"StartAt\":\"A\"}", true);

        assertThat(after.changedSince(before)).containsExactly("flow_starters");
    }

    @Test
    void shouldCompareOnlyDefinitionAndSchemaWhenTheOlderVersionsMetadataIsUnknown() {
        FlowVersion before = version(1, null, null, "{\"StartAt\":\"A\"}", false);
        FlowVersion after = version(2, "renamed", "{\"flow_viewers\":[\"bob\"]}", "{\"StartAt\":\"B\"}", true);

        assertThat(after.changedSince(before)).containsExactly("definition");
    }

    @Test
    void shouldTreatAnEmptyRoleListAsNoneAndTheFirstVersionAsChangingNothing() {
        FlowVersion before = version(1, "t", "{}", "{\"StartAt\":\"A\"}", true);
        FlowVersion after = version(2, "t", "{\"flow_viewers\":[]}", "{\"StartAt\":\"A\"}", true);

        assertThat(after.changedSince(before)).isEmpty();
        assertThat(before.changedSince(null)).isEmpty();
    }
}
