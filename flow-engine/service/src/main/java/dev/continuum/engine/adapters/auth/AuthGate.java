package dev.continuum.engine.adapters.auth;

import dev.continuum.engine.adapters.rest.ProblemMappers;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Security by default: every API request needs a valid bearer token. quarkus-oidc verifies a token
 * that is present (issuer, signature, expiry, audience); this gate refuses requests that carry none,
 * and turns both refusals into RFC 9457 problem JSON instead of Quarkus' empty 401.
 *
 * <p>Provider push callbacks ({@code /runs/{id}/callbacks/{token}}) stay open: the unguessable token in
 * the URL is their credential, handed only to the provider of that one action. So do webhook deliveries
 * ({@code /triggers/{id}/webhook}): their HMAC signature is theirs. And the identity provider's redirect after a
 * consent ({@code /grants/consent/callback}): its one-time state, bound to the person who asked, is its credential.
 */
@ApplicationScoped
public class AuthGate {

    private static final Logger LOG = Logger.getLogger(AuthGate.class);

    private final AuthConfig auth;

    @jakarta.inject.Inject
    SecurityIdentity identity;

    public AuthGate(AuthConfig auth) {
        this.auth = auth;
    }

    void announce(@Observes StartupEvent started) {
        if (auth.enabled()) {
            LOG.infof("API authentication on: bearer tokens from %s with audience %s", auth.issuer(), auth.clientId());
            IssuerProbe.problem(auth.issuer()).ifPresent(problem -> LOG.warnf(
                    "The identity provider %s cannot be reached (%s). Until it answers, API calls get 503 'Identity provider "
                            + "unavailable'. Start it (./continuum up starts one), or point continuum.auth.issuer "
                            + "(CONTINUUM_AUTH_ISSUER) at your Keycloak realm.", auth.issuer(), problem));
        } else {
            LOG.warn("!!! API AUTHENTICATION IS OFF (continuum.auth.enabled=false): anyone who can reach this port acts as "
                    + "the local user. Use only on a laptop for development; set CONTINUUM_AUTH_ENABLED=true otherwise. !!!");
        }
    }

    /** Invalid, expired, tampered or foreign tokens fail inside quarkus-oidc, before any resource: answer with a problem. */
    void problemsForFailedAuthentication(@Observes Router router) {
        router.route().order(-1000).failureHandler(rc -> {
            if (rc.failure() instanceof AuthenticationFailedException && !rc.response().ended()) {
                rc.response().setStatusCode(401)
                        .putHeader(HttpHeaders.CONTENT_TYPE, "application/problem+json")
                        .putHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                        .end(ProblemMappers.problemJson(401, "unauthorized", "Invalid bearer token",
                                "The bearer token was refused: it is expired, altered, issued by another identity provider, "
                                        + "or not meant for this engine. Sign in again to get a new one."));
            } else {
                rc.next();
            }
        });
    }

    @ServerRequestFilter
    public Response requireToken(ContainerRequestContext request) {
        if (!auth.enabled() || !identity.isAnonymous() || isCallback(request.getUriInfo().getPath())
                || isWebhook(request.getUriInfo().getPath()) || request.getUriInfo().getPath().equals("/grants/consent/callback")) {
            return null;
        }
        return ProblemMappers.unauthorized("Sign-in required",
                "This API needs 'Authorization: Bearer <access token>' from " + auth.issuer() + ".");
    }

    /** A webhook delivery's credential is its HMAC signature, checked by the trigger (WebhookService). */
    private static boolean isWebhook(String path) {
        return path.startsWith("/triggers/") && path.endsWith("/webhook") && path.chars().filter(c -> c == '/').count() == 3;
    }

    private static boolean isCallback(String path) {
        return path.startsWith("/runs/") && path.contains("/callbacks/");
    }
}
