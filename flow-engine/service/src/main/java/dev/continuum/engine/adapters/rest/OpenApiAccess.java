package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.adapters.web.WebUiConfigRoute;
import dev.continuum.engine.adapters.web.WebUiTokenRoute;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Makes /q/openapi say who may call what, so clients, reviewers and the generated access tests
 * ({@code EndpointAccessApiTest}, {@code HostileInputApiTest}) read one source. Each operation's
 * {@value #EXTENSION} (set beside the endpoint with {@code @Extension}) is one of:
 * <ul>
 *   <li>{@code public: <why>} — no bearer token; the operation states its own credential ({@code security: []});
 *   <li>{@code signed-in} — any valid token; what it lists or makes is the caller's own;
 *   <li>{@code flow:view|start|administer|own}, {@code run:monitor|manage}, {@code trigger:view|administer} — the
 *       weakest role on the resource named in the path that may call it. Whoever holds a weaker role gets 403;
 *       whoever holds none gets 404, exactly as for an id that does not exist (docs/auth.md).
 * </ul>
 * Every other operation gets the bearer requirement and its 401, 403, 404 and 429 answers. The web UI's two Vert.x
 * routes, which JAX-RS does not see, are added here; the list endpoints' query parameters (read from the URI, so
 * invisible to the scanner) are listed from {@link Listings}.
 */
public class OpenApiAccess implements OASFilter {

    public static final String EXTENSION = "x-continuum-access";
    static final String SCHEME = "SecurityScheme";

    @Override
    public void filterOpenAPI(OpenAPI openApi) {
        webUiRoutes(openApi);
        queryParameters(openApi.getPaths().getPathItem("/flows").getGET(), Listings.FLOW_PARAMS);
        queryParameters(openApi.getPaths().getPathItem("/runs").getGET(), Listings.RUN_PARAMS);
        for (PathItem item : openApi.getPaths().getPathItems().values()) {
            for (Operation operation : item.getOperations().values()) {
                describe(operation);
            }
        }
    }

    private static void describe(Operation operation) {
        Object access = operation.getExtensions() == null ? null : operation.getExtensions().get(EXTENSION);
        if (access == null) {
            throw new IllegalStateException("operation " + operation.getOperationId() + " " + operation.getSummary()
                    + " says nothing about who may call it: add @Extension(name = OpenApiAccess.EXTENSION, …)");
        }
        problem(operation, "400", "Invalid request: the problem's errors[].pointer names the field or parameter");
        problem(operation, "413", "Request body larger than quarkus.http.limits.max-body-size");
        if (access.toString().startsWith("public")) {
            operation.setSecurity(List.of());
            return;
        }
        operation.setSecurity(List.of(OASFactory.createSecurityRequirement().addScheme(SCHEME)));
        problem(operation, "401", "No bearer token, or one that is expired, altered or not meant for this engine");
        problem(operation, "429", "This token's rate limit (continuum.api.rate-limit.*) is spent; see Retry-After");
        if (access.toString().contains(":")) {
            problem(operation, "403", "You hold a role on it, but a weaker one than " + access);
            problem(operation, "404", "It does not exist, or you hold no role on it (the two are not told apart)");
        }
    }

    private static void problem(Operation operation, String status, String description) {
        if (operation.getResponses().getAPIResponse(status) == null) {
            operation.getResponses().addAPIResponse(status, OASFactory.createAPIResponse().description(description)
                    .content(OASFactory.createContent().addMediaType("application/problem+json", OASFactory.createMediaType())));
        }
    }

    private static void queryParameters(Operation list, Set<String> names) {
        for (String name : new TreeSet<>(names)) {
            boolean number = Set.of("limit", "per_page", "offset").contains(name);
            list.addParameter(OASFactory.createParameter().name(name).in(Parameter.In.QUERY)
                    .schema(OASFactory.createSchema().addType(number ? org.eclipse.microprofile.openapi.models.media.Schema.SchemaType.INTEGER
                            : org.eclipse.microprofile.openapi.models.media.Schema.SchemaType.STRING)));
        }
    }

    private static void webUiRoutes(OpenAPI openApi) {
        Operation config = OASFactory.createOperation().summary("Where the browser signs in: issuer and the web UI's public client")
                .responses(OASFactory.createAPIResponses().addAPIResponse("200", OASFactory.createAPIResponse().description("OK")))
                .extensions(Map.of(EXTENSION, "public: the page reads it before anyone has signed in; it names the issuer "
                        + "and a public client, no secret"));
        Operation token = OASFactory.createOperation()
                .summary("The identity provider's token endpoint on the engine's origin, for the web UI's public client")
                .requestBody(OASFactory.createRequestBody().required(true).content(OASFactory.createContent()
                        .addMediaType("application/x-www-form-urlencoded", OASFactory.createMediaType())))
                .responses(OASFactory.createAPIResponses().addAPIResponse("200", OASFactory.createAPIResponse().description("OK")))
                .extensions(Map.of(EXTENSION, "public: the browser trades its sign-in code (PKCE) or refresh token for tokens "
                        + "here; Keycloak checks them, the engine adds no credential"));
        openApi.getPaths().addPathItem(WebUiConfigRoute.PATH, OASFactory.createPathItem().GET(config));
        openApi.getPaths().addPathItem(WebUiTokenRoute.PATH, OASFactory.createPathItem().POST(token));
    }
}
