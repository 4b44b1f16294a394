package dev.continuum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A real HTTP server on a free port answering like the engine's REST API with canned JSON, and remembering what it
 * was asked. The CLI's neighbour, faked so the CLI's tests need no database or engine.
 */
final class FakeEngine implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** {@code authorization}: the Authorization header as sent, or null. */
    record Request(String method, String path, Map<String, String> query, String body, String authorization) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("the CLI sent a body that is not JSON: " + body, e);
            }
        }
    }

    record Response(int status, String contentType, String body) {
        static Response json(int status, String body) {
            return new Response(status, "application/json", body);
        }

        static Response problem(int status, String body) {
            return new Response(status, "application/problem+json", body);
        }
    }

    private final HttpServer server;
    private final Map<String, Function<Request, Response>> routes = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeEngine() throws IOException {
        this(0);
    }

    /** On a given port, to stand in for an engine that comes back where it was after a restart. */
    FakeEngine(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String api() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    FakeEngine on(String method, String path, Function<Request, Response> answer) {
        routes.put(method + " " + path, answer);
        return this;
    }

    FakeEngine on(String method, String path, int status, String json) {
        return on(method, path, request -> status >= 400 ? Response.problem(status, json) : Response.json(status, json));
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    Request only(String method, String path) {
        List<Request> matching = requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).toList();
        if (matching.size() != 1) {
            throw new AssertionError("expected one " + method + " " + path + " but saw " + requests);
        }
        return matching.get(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                query(exchange.getRequestURI().getRawQuery()), body, exchange.getRequestHeaders().getFirst("Authorization"));
        requests.add(request);
        Function<Request, Response> route = routes.get(request.method() + " " + request.path());
        Response response = route != null ? route.apply(request) : Response.problem(404,
                "{\"type\":\"https://continuum.dev/problems/http-404\",\"title\":\"Not Found\",\"status\":404,"
                        + "\"detail\":\"no route in the fake engine\",\"errors\":[]}");
        byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
        if (!response.body().isEmpty()) {
            exchange.getResponseHeaders().add("Content-Type", response.contentType());
        }
        exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
