package dev.continuum.engine.adapters.web;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.engine.adapters.auth.AuthConfig;
import dev.continuum.engine.adapters.rest.OpenApiAccess;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.ProviderAudiences;
import dev.continuum.engine.domain.ProviderAudiences.Audience;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Optional;

/**
 * The training provider's operator API on the engine's origin (docs/training.md, "Operators"), for the CLI's
 * {@code continuum training ...}: one URL and one sign-in for the operator. The engine exchanges the caller's token for
 * one the provider accepts (its audience and scope, as for a run's call) and passes the call on; the provider decides
 * who may do what (its admin role), so the rule is the same whether it is called directly or through here.
 */
@Path("/ops/training")
@Produces(MediaType.APPLICATION_JSON)
public class TrainingRelay {

    private static final List<String> OPERATIONS = List.of("preempt", "resize", "migrate");
    /** What a job id may look like (the provider's action ids); anything else never reaches the provider. */
    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private final OpsConfig ops;
    private final AuthConfig auth;
    private final HttpRelay provider = new HttpRelay("training provider");

    public TrainingRelay(OpsConfig ops, AuthConfig auth) {
        this.ops = ops;
        this.auth = auth;
    }

    @GET
    @Path("/jobs")
    @Operation(summary = "The training provider's jobs: id, state, site, partition, GPUs, owner, started (operators only)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Response> jobs(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return relay("GET", "/jobs", authorization, Optional.empty());
    }

    @POST
    @Path("/jobs/{id}/{operation}")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Preempt, resize ({\"gpus\": n}) or migrate ({\"partition\": p} and/or {\"site\": s}) a training job (operators only)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Response> operate(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, @PathParam("id") String id,
                                 @PathParam("operation") String operation, String body) {
        if (!JOB_ID.matcher(id).matches()) {
            throw EngineError.invalidField("/id", "a training job id is 1 to 128 letters, digits, '.', '_' or '-'");
        }
        if (!OPERATIONS.contains(operation)) {
            return Uni.createFrom().item(HttpRelay.problem(404, "not-found", "Not found",
                    "No training operation '" + operation + "': preempt, resize or migrate."));
        }
        String path = "/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20") + "/" + operation;
        return relay("POST", path, authorization, Optional.ofNullable(body).filter(b -> !b.isBlank()));
    }

    private Uni<Response> relay(String method, String path, String authorization, Optional<String> body) {
        if (ops.trainingUrl().isEmpty()) {
            // 404: on this engine the training operations do not exist (as a route with no provider behind it)
            return Uni.createFrom().item(HttpRelay.problem(404, "not-configured", "No training provider configured",
                    "This engine has no continuum.ops.training-url, so it knows no training provider to ask."));
        }
        String base = ops.trainingUrl().get().toString().replaceAll("/+$", "");
        if (!auth.enabled() || authorization == null) {
            return provider.send(method, URI.create(base + path), authorization, body);
        }
        return Uni.createFrom().item(() -> "Bearer " + providerToken(base, authorization.replaceFirst("(?i)^Bearer\\s+", "")))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onItem().transformToUni(exchanged -> provider.send(method, URI.create(base + path), exchanged, body))
                .onFailure(TokenRefusedException.class).recoverWithItem(refused -> HttpRelay.problem(401, "unauthorized",
                        "Sign-in required", "The identity provider would not let the engine act for you at the training "
                                + "provider (" + refused.getMessage() + "). Sign in again."));
    }

    /** The caller's token exchanged for the training provider's audience and scope (blocking: a worker thread). */
    private String providerToken(String base, String callerToken) {
        Audience audience = ProviderAudiences.parse(auth.providerAudiences().orElse(List.of()), () -> "about:none")
                .of(base).orElse(ProviderAudiences.TRAINING);
        return new TokenClient(auth.issuer()).exchange(ClientCredentials.confidential(auth.clientId(),
                auth.clientSecret().orElse("")), callerToken, audience.clientId(), audience.scope(), false).accessToken();
    }
}
