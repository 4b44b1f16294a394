package dev.continuum.engine.adapters.web;

import dev.continuum.engine.adapters.rest.ProblemMappers;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * One call passed on to a neighbouring service (the planner, the training provider) and its answer passed back as it
 * came: status, content type, body. A neighbour that does not answer becomes a 502 problem naming it, so the caller
 * (web UI, CLI) always gets a problem document it can show.
 */
final class HttpRelay {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String neighbour;

    /** {@code neighbour} names the service in problems ("planner", "training provider"). */
    HttpRelay(String neighbour) {
        this.neighbour = neighbour;
    }

    /** {@code authorization} is the header value to send (none when null); {@code body} is JSON for POST. */
    Uni<Response> send(String method, URI target, String authorization, Optional<String> body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(10))
                .header("Accept", MediaType.APPLICATION_JSON)
                .method(method, body.map(HttpRequest.BodyPublishers::ofString).orElse(HttpRequest.BodyPublishers.noBody()));
        body.ifPresent(b -> request.header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON));
        if (authorization != null) {
            request.header(HttpHeaders.AUTHORIZATION, authorization);
        }
        String base = target.getScheme() + "://" + target.getAuthority();
        return Uni.createFrom().completionStage(() -> http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString()))
                .map(answer -> Response.status(answer.statusCode())
                        .type(answer.headers().firstValue("Content-Type").orElse(MediaType.APPLICATION_JSON))
                        .entity(answer.body()).build())
                .onFailure().recoverWithItem(failure -> problem(502, neighbour.replace(' ', '-') + "-unreachable",
                        capitalised(neighbour) + " unreachable",
                        "The " + neighbour + " at " + base + " does not answer (" + failure.getClass().getSimpleName() + ")."));
    }

    static Response problem(int status, String type, String title, String detail) {
        return Response.status(status).type("application/problem+json")
                .entity(ProblemMappers.problemJson(status, type, title, detail)).build();
    }

    private static String capitalised(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
