package dev.continuum.provider.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * The introspection document a provider serves at {@code GET /}: what it is, who may use it,
 * which scope a token must carry ({@code globus_auth_scope}) and what its input looks like.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProviderDescription(
        @JsonProperty("types") List<String> types,
        @JsonProperty("api_version") String apiVersion,
        @JsonProperty("globus_auth_scope") String globusAuthScope,
        @JsonProperty("title") String title,
        @JsonProperty("subtitle") String subtitle,
        @JsonProperty("description") String description,
        @JsonProperty("keywords") List<String> keywords,
        @JsonProperty("visible_to") List<String> visibleTo,
        @JsonProperty("runnable_by") List<String> runnableBy,
        @JsonProperty("administered_by") List<String> administeredBy,
        @JsonProperty("admin_contact") String adminContact,
        @JsonProperty("synchronous") boolean synchronous,
        @JsonProperty("log_supported") boolean logSupported,
        @JsonProperty("maximum_deadline") String maximumDeadline,
        @JsonProperty("input_schema") JsonNode inputSchema) {

    public static final String API_VERSION = "1.0";

    public ProviderDescription {
        types = types == null ? List.of("Action") : List.copyOf(types);
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        keywords = keywords == null ? List.of() : List.copyOf(keywords);
        visibleTo = visibleTo == null ? List.of() : List.copyOf(visibleTo);
        runnableBy = runnableBy == null ? List.of() : List.copyOf(runnableBy);
        administeredBy = administeredBy == null ? List.of() : List.copyOf(administeredBy);
    }

    public static Builder builder(String title) {
        return new Builder(title);
    }

    /** Fills the Globus defaults (public, runnable by all authenticated users, log supported). */
    public static final class Builder {
        private final String title;
        private String subtitle;
        private String description;
        private List<String> keywords = List.of();
        private List<String> visibleTo = List.of("public");
        private List<String> runnableBy = List.of("all_authenticated_users");
        private List<String> administeredBy = List.of();
        private String adminContact = "admin@localhost";
        private String scope;
        private boolean synchronous;
        private boolean logSupported = true;
        private String maximumDeadline = "P30D";
        private JsonNode inputSchema;

        private Builder(String title) {
            this.title = Objects.requireNonNull(title, "title");
        }

        public Builder subtitle(String value) { this.subtitle = value; return this; }
        public Builder description(String value) { this.description = value; return this; }
        public Builder keywords(List<String> value) { this.keywords = value; return this; }
        public Builder visibleTo(List<String> value) { this.visibleTo = value; return this; }
        public Builder runnableBy(List<String> value) { this.runnableBy = value; return this; }
        public Builder administeredBy(List<String> value) { this.administeredBy = value; return this; }
        public Builder adminContact(String value) { this.adminContact = value; return this; }
        /** The scope a bearer token must carry to call this provider. */
        public Builder scope(String value) { this.scope = value; return this; }
        public Builder synchronous(boolean value) { this.synchronous = value; return this; }
        public Builder logSupported(boolean value) { this.logSupported = value; return this; }
        /** ISO-8601 duration, e.g. {@code P30D}. */
        public Builder maximumDeadline(String value) { this.maximumDeadline = value; return this; }
        /** JSON Schema (2020-12 unless {@code $schema} says otherwise) that every {@code body} must satisfy. */
        public Builder inputSchema(JsonNode value) { this.inputSchema = value; return this; }

        public ProviderDescription build() {
            return new ProviderDescription(List.of("Action"), API_VERSION, scope, title, subtitle, description,
                    keywords, visibleTo, runnableBy, administeredBy, adminContact, synchronous, logSupported,
                    maximumDeadline, inputSchema);
        }
    }
}
