package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerRejectedException;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.training.core.TrainingJob;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.Optional;

/**
 * {@code POST {base}/{action_id}/preempt} and {@code POST {base}/{action_id}/resize} with
 * {@code {"gpus": n}}: operators asking for what the planner would otherwise decide. Only callers
 * with the admin role; the answer is 202 with the action's details once the stop is requested.
 */
final class OperatorRoutes {
    private final TrainingProvider provider;
    private final CallerResolver callers;
    private final String adminRole;

    OperatorRoutes(TrainingProvider provider, CallerResolver callers, String adminRole) {
        this.provider = provider;
        this.callers = callers;
        this.adminRole = adminRole;
    }

    void mount(Router router, String basePath) {
        router.post(basePath + "/:action_id/preempt").handler(BodyHandler.create().setBodyLimit(4096))
                .blockingHandler(rc -> handle(rc, false), false);
        router.post(basePath + "/:action_id/resize").handler(BodyHandler.create().setBodyLimit(4096))
                .blockingHandler(rc -> handle(rc, true), false);
    }

    private void handle(RoutingContext rc, boolean resize) {
        Caller caller;
        try {
            caller = callers.resolve(rc);
        } catch (CallerRejectedException e) {
            problem(rc, e.httpStatus(), e.getMessage(), null);
            return;
        }
        if (!caller.roles().contains(adminRole)) {
            problem(rc, 403, "Only operators (role " + adminRole + ") may preempt or resize a training job.", null);
            return;
        }
        String id = rc.pathParam("action_id");
        Optional<TrainingJob> job = provider.scheduler().job(id);
        if (job.isEmpty()) {
            problem(rc, 404, "No training action " + id + ".", null);
            return;
        }
        if (job.get().state().finished() || job.get().handle().isEmpty()) {
            problem(rc, 409, "The job is " + job.get().state().wire() + ": only a started job can be preempted or resized.", null);
            return;
        }
        if (resize) {
            JsonNode body = body(rc);
            int total = provider.scheduler().inventory().partition(job.get().placement().orElseThrow().partition())
                    .orElseThrow().totalGpus();
            if (body == null || !body.path("gpus").canConvertToInt() || body.path("gpus").asInt() < 1
                    || body.path("gpus").asInt() > total) {
                problem(rc, 400, "gpus must be a whole number from 1 to " + total + ".", "/gpus");
                return;
            }
            if (!job.get().request().elastic()) {
                problem(rc, 409, "The job is not elastic (request field elastic): it cannot change its GPUs.", null);
                return;
            }
            int gpus = body.path("gpus").asInt();
            provider.runOnLoop(() -> provider.scheduler().resize(id, gpus, "resized to " + gpus + " GPUs by " + caller.id()));
        } else {
            provider.runOnLoop(() -> provider.scheduler().preempt(id, "preempted by operator " + caller.id()));
        }
        TrainingJob now = provider.scheduler().job(id).orElseThrow();
        rc.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                .end(JobJson.details(now).toString());
    }

    private static JsonNode body(RoutingContext rc) {
        try {
            return rc.body().isEmpty() ? null : ProviderJson.mapper().readTree(rc.body().asString());
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static void problem(RoutingContext rc, int status, String detail, String pointer) {
        JsonObject p = new JsonObject().put("type", "about:blank").put("title", status == 400 ? "Invalid request"
                : status == 403 ? "Forbidden" : status == 404 ? "Not found" : status == 409 ? "Conflict" : "Error")
                .put("status", status).put("detail", detail);
        if (pointer != null) {
            p.put("errors", new io.vertx.core.json.JsonArray().add(new JsonObject().put("pointer", pointer).put("message", detail)));
        }
        rc.response().setStatusCode(status).putHeader("Content-Type", "application/problem+json").end(p.encode());
    }
}
