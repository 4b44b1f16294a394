package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.continuum.bench.measure.FiveStepFlow;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP and JSON floor of starting a run (issue 17 A): {@code POST /flows/{id}/run} on a bare Vert.x HTTP server
 * (one event loop, no router, no RESTEasy, no CDI, no Mutiny) that reads the request body with Jackson and answers
 * 201 with a run view of the engine's shape (Globus' run fields, snake_case) written by Jackson; no run is started.
 * A Vert.x client in the same JVM keeps {@code --connections} keep-alive connections busy. Prints the server event
 * loop's CPU time and bytes allocated per request (ThreadMXBean); asserts nothing.
 */
@Command(name = "http-start-floor", mixinStandardHelpOptions = true,
        description = "Measure the server-side CPU of POST /flows/{id}/run on bare Vert.x + Jackson.")
public final class HttpStartFloor implements Callable<Integer> {

    @Option(names = "--requests", defaultValue = "100000", description = "Measured requests (default ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--warmup", defaultValue = "50000", description = "Unmeasured requests first (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--connections", defaultValue = "16", description = "Keep-alive connections, one request in flight on each (default ${DEFAULT-VALUE}).")
    int connections;

    /** The run as {@code POST /flows/{id}/run} answers it (the engine's Views.Run, with the same field names). */
    record RunView(UUID runId, UUID actionId, UUID flowId, int flowVersion, String flowTitle, Instant flowLastUpdated,
                   String status, String displayStatus, String label, List<String> tags, String runOwner, String createdBy,
                   List<String> runManagers, List<String> runMonitors, List<String> manageBy, List<String> monitorBy,
                   String userRole, List<String> userRoles, Instant startTime, Instant completionTime, JsonNode details,
                   JsonNode flowDescription, JsonNode activityNotificationPolicy, List<String> userActions) {}

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final AtomicLong serverThread = new AtomicLong(-1);
    private final AtomicInteger badRequests = new AtomicInteger();

    @Override
    public Integer call() throws Exception {
        Vertx server = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        Vertx client = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        try {
            HttpServer http = await(server.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1"));
            HttpClient httpClient = client.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true)
                    .setDefaultHost("127.0.0.1").setDefaultPort(http.actualPort()), new PoolOptions().setHttp1MaxSize(connections));
            UUID flow = UUID.randomUUID();
            Buffer body = Buffer.buffer(JSON.writeValueAsBytes(JSON.createObjectNode().put("label", "bench-floor")
                    .<ObjectNode>set("body", FiveStepFlow.input(1)).<ObjectNode>set("tags", JSON.createArrayNode().add("bench"))));
            drive(httpClient, flow, body, warmup);
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long thread = serverThread.get();
            long cpuBefore = threads.getThreadCpuTime(thread);
            long bytesBefore = threads.getThreadAllocatedBytes(thread);
            long processBefore = os.getProcessCpuTime();
            long wallBefore = System.nanoTime();
            drive(httpClient, flow, body, requests);
            double wall = (System.nanoTime() - wallBefore) / 1e9;
            long cpu = threads.getThreadCpuTime(thread) - cpuBefore;
            long bytes = threads.getThreadAllocatedBytes(thread) - bytesBefore;
            long process = os.getProcessCpuTime() - processBefore;
            System.out.printf("http start floor   %d requests after %d warm-up, %d connections, request %d B%n",
                    requests, warmup, connections, body.length());
            System.out.printf("server cpu/request %.1f us  (the event loop: HTTP parse, Jackson in and out, response write)%n",
                    cpu / 1e3 / requests);
            System.out.printf("server alloc/req   %.1f KiB%n", bytes / 1024.0 / requests);
            System.out.printf("process cpu/req    %.1f us  (server, client and JVM threads together)%n", process / 1e3 / requests);
            System.out.printf("wall               %.2f s, %.0f requests/s; bad answers: %d%n", wall, requests / wall, badRequests.get());
            await(httpClient.close());
            await(http.close());
        } finally {
            await(client.close());
            await(server.close());
        }
        return badRequests.get() == 0 ? 0 : 1;
    }

    private void handle(HttpServerRequest request) {
        serverThread.compareAndSet(-1, Thread.currentThread().threadId());
        String path = request.path();
        if (request.method() != HttpMethod.POST || !path.startsWith("/flows/") || !path.endsWith("/run")) {
            request.response().setStatusCode(404).end();
            return;
        }
        request.body().onSuccess(buffer -> {
            try {
                UUID flowId = UUID.fromString(path.substring("/flows/".length(), path.length() - "/run".length()));
                JsonNode start = JSON.readTree(buffer.getBytes());
                JsonNode input = start.get("body");
                if (input == null || !input.isObject()) {
                    problem(request, "body", "must be a JSON object");
                    return;
                }
                List<String> tags = start.path("tags").isArray()
                        ? JSON.convertValue(start.get("tags"), JSON.getTypeFactory().constructCollectionType(List.class, String.class))
                        : List.of();
                Instant now = Instant.now();
                UUID runId = UUID.randomUUID();
                ObjectNode details = JSON.createObjectNode();
                details.put("code", "ActionStarted");
                details.put("description", "Starting action at http://127.0.0.1:8080/providers/echo");
                details.putObject("details").put("state_name", "Echo").put("state_type", "Action");
                RunView view = new RunView(runId, runId, flowId, 1, "bench: five-step flow", now, "ACTIVE", "ACTIVE",
                        start.path("label").asText(null), tags, "local:scientist", "local:scientist", List.of(), List.of(),
                        List.of(), List.of(), "run_owner", List.of("run_owner"), now, null, details, null,
                        JSON.createObjectNode().set("status", JSON.createArrayNode().add("INACTIVE")),
                        List.of("cancel", "update", "delete"));
                request.response().setStatusCode(201).putHeader("content-type", "application/json")
                        .end(Buffer.buffer(JSON.writeValueAsBytes(view)));
            } catch (Exception e) {
                problem(request, "body", e.getMessage());
            }
        });
    }

    private static void problem(HttpServerRequest request, String field, String detail) {
        request.response().setStatusCode(400).putHeader("content-type", "application/problem+json")
                .end(JSON.createObjectNode().put("title", "Bad request").put("status", 400).put("field", field)
                        .put("detail", detail).toString());
    }

    /** Closed loop: each connection sends its next request when the answer to its last one has been read. */
    private void drive(HttpClient client, UUID flow, Buffer body, int count) throws Exception {
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        CompletableFuture<Void> done = new CompletableFuture<>();
        for (int i = 0; i < connections; i++) {
            next(client, "/flows/" + flow + "/run", body, count, sent, answered, done);
        }
        done.get(30, TimeUnit.MINUTES);
    }

    private void next(HttpClient client, String uri, Buffer body, int count, AtomicInteger sent, AtomicInteger answered,
                      CompletableFuture<Void> done) {
        if (sent.getAndIncrement() >= count) {
            return;
        }
        client.request(HttpMethod.POST, uri)
                .compose(request -> request.putHeader("content-type", "application/json").send(body))
                .compose(response -> {
                    if (response.statusCode() != 201) {
                        badRequests.incrementAndGet();
                    }
                    return response.body();
                })
                .onComplete(result -> {
                    if (result.failed()) {
                        done.completeExceptionally(result.cause());
                        return;
                    }
                    if (answered.incrementAndGet() == count) {
                        done.complete(null);
                    } else {
                        next(client, uri, body, count, sent, answered, done);
                    }
                });
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new HttpStartFloor()).execute(args));
    }
}
