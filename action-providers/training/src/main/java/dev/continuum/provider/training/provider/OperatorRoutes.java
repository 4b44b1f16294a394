package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerRejectedException;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.core.TrainingJob;
import dev.continuum.provider.training.core.TrainingSite;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.Optional;

/**
 * {@code GET {base}/jobs} (every job the provider knows, one summary each), {@code POST {base}/{action_id}/preempt}, {@code POST {base}/{action_id}/resize} with {@code {"gpus": n}} and
 * {@code POST {base}/{action_id}/migrate} with {@code {"partition": "p"}}, {@code {"site": "s"}} or both: operators asking for what the planner
 * would otherwise decide. Only callers with the admin role; the answer is 202 with the action's details once the
 * stop is requested.
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

    private enum Operation { PREEMPT, RESIZE, MIGRATE }

    void mount(Router router, String basePath) {
        // before the Action Provider API's routes, which would read "jobs" as an action id
        router.get(basePath + "/jobs").blockingHandler(this::list, false);
        for (Operation op : Operation.values()) {
            router.post(basePath + "/:action_id/" + op.name().toLowerCase(java.util.Locale.ROOT))
                    .handler(BodyHandler.create().setBodyLimit(4096)).blockingHandler(rc -> handle(rc, op), false);
        }
    }

    private void list(RoutingContext rc) {
        if (operator(rc, "list the training jobs").isEmpty()) {
            return;
        }
        var answer = ProviderJson.mapper().createObjectNode();
        var jobs = answer.putArray("jobs");
        provider.scheduler().jobs().forEach(job -> jobs.add(JobJson.summary(job, provider.owner(job.id()))));
        rc.response().putHeader("Content-Type", "application/json").end(answer.toString());
    }

    /** The caller when they hold the admin role; otherwise the refusal is sent and the answer is empty. */
    private Optional<Caller> operator(RoutingContext rc, String what) {
        Caller caller;
        try {
            caller = callers.resolve(rc);
        } catch (CallerRejectedException e) {
            problem(rc, e.httpStatus(), e.getMessage(), null);
            return Optional.empty();
        }
        if (!caller.roles().contains(adminRole)) {
            problem(rc, 403, "Only operators (role " + adminRole + ") may " + what + ".", null);
            return Optional.empty();
        }
        return Optional.of(caller);
    }

    private void handle(RoutingContext rc, Operation op) {
        Optional<Caller> operator = operator(rc, "preempt, resize or migrate a training job");
        if (operator.isEmpty()) {
            return;
        }
        Caller caller = operator.get();
        String id = rc.pathParam("action_id");
        Optional<TrainingJob> job = provider.scheduler().job(id);
        if (job.isEmpty()) {
            problem(rc, 404, "No training action " + id + ".", null);
            return;
        }
        if (job.get().state().finished() || job.get().handle().isEmpty()) {
            problem(rc, 409, "The job is " + job.get().state().wire() + ": only a started job can be preempted, resized or migrated.", null);
            return;
        }
        boolean accepted = switch (op) {
            case PREEMPT -> {
                provider.runOnLoop(() -> provider.scheduler().preempt(id, "preempted by operator " + caller.id()));
                yield true;
            }
            case RESIZE -> resize(rc, job.get(), caller);
            case MIGRATE -> migrate(rc, job.get(), caller);
        };
        if (!accepted) {
            return;
        }
        TrainingJob now = provider.scheduler().job(id).orElseThrow();
        rc.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                .end(JobJson.details(now).toString());
    }

    private boolean resize(RoutingContext rc, TrainingJob job, Caller caller) {
        JsonNode body = body(rc);
        Placement at = job.placement().orElseThrow();
        int total = provider.scheduler().sites().stream().filter(s -> s.name().equals(at.site())).findFirst()
                .map(TrainingSite::inventory).orElse(provider.scheduler().inventory()).partition(at.partition())
                .map(p -> p.totalGpus()).orElse(at.gpus());
        if (body == null || !body.path("gpus").canConvertToInt() || body.path("gpus").asInt() < 1
                || body.path("gpus").asInt() > total) {
            problem(rc, 400, "gpus must be a whole number from 1 to " + total + ".", "/gpus");
            return false;
        }
        if (!job.request().elastic()) {
            problem(rc, 409, "The job is not elastic (request field elastic): it cannot change its GPUs.", null);
            return false;
        }
        int gpus = body.path("gpus").asInt();
        provider.runOnLoop(() -> provider.scheduler().resize(job.id(), gpus, "resized to " + gpus + " GPUs by " + caller.id()));
        return true;
    }

    private boolean migrate(RoutingContext rc, TrainingJob job, Caller caller) {
        JsonNode body = body(rc);
        var sites = provider.scheduler().sites();
        Placement at = job.placement().orElseThrow();
        String siteNames = String.join(", ", sites.stream().map(TrainingSite::name).toList());
        if (body == null || !(body.path("partition").isTextual() || body.path("site").isTextual())) {
            problem(rc, 400, "partition or site is required: a partition of " + at.site() + " ("
                    + names(sites.stream().filter(s -> s.name().equals(at.site())).findFirst().orElseThrow())
                    + ") or one of the sites " + siteNames + ".", "/partition");
            return false;
        }
        String siteName = body.path("site").isTextual() ? body.path("site").asText() : at.site();
        Optional<TrainingSite> site = sites.stream().filter(s -> s.name().equals(siteName)).findFirst();
        if (site.isEmpty()) {
            problem(rc, 400, "unknown site " + siteName + " (this provider runs jobs at " + siteNames + ").", "/site");
            return false;
        }
        var inventory = site.get().inventory();
        String to = body.path("partition").isTextual() ? body.path("partition").asText()
                : inventory.defaultPartition().orElseThrow().name();
        var partition = inventory.partition(to);
        if (partition.isEmpty()) {
            problem(rc, 400, "unknown partition " + to + " at site " + siteName + " (it has " + names(site.get()) + ").",
                    "/partition");
            return false;
        }
        int gpus = at.gpus();
        if (partition.get().totalGpus() < gpus || job.request().gpuModel().filter(m -> !partition.get().gpuModel()
                .map(m::equalsIgnoreCase).orElse(false)).isPresent()) {
            problem(rc, 400, "partition " + to + " cannot hold the job's " + gpus + " GPUs"
                    + job.request().gpuModel().map(m -> " of model " + m).orElse("") + ".", "/partition");
            return false;
        }
        if (at.site().equals(siteName) && at.partition().equals(to)) {
            problem(rc, 409, "The job already runs in partition " + to + " at site " + siteName + ".", null);
            return false;
        }
        if (!at.site().equals(siteName) && site.get().transferEndpoint().isEmpty()) {
            problem(rc, 409, "Site " + siteName + " has no transfer endpoint: the job's checkpoint cannot be carried there.",
                    null);
            return false;
        }
        String where = at.site().equals(siteName) ? to : to + " at site " + siteName;
        provider.runOnLoop(() -> provider.scheduler().migrate(job.id(), siteName, to,
                "migrated to " + where + " by " + caller.id()));
        return true;
    }

    private static String names(TrainingSite site) {
        return String.join(", ", site.inventory().partitions().stream().map(p -> p.name()).toList());
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
