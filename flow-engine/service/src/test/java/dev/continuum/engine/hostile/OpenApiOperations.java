package dev.continuum.engine.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The engine's operations as its own /q/openapi document lists them: the tests derive every request from these. */
public record OpenApiOperations(JsonNode document, List<Op> operations) {

    public record Param(String name, String in, String type) {}

    /**
     * One operation. {@code access} is its {@code x-continuum-access}: {@code public: …}, {@code signed-in}, or
     * {@code <kind>:<role>} for the weakest role on the resource in its path that may call it.
     */
    public record Op(String method, String path, List<Param> params, Optional<String> bodyType, Optional<JsonNode> bodySchema,
                     String access, boolean bearerRequired) {

        public boolean isPublic() {
            return access.startsWith("public");
        }

        /** "flow", "run" or "trigger" for operations on one resource; empty for collections and public ones. */
        public Optional<String> resourceKind() {
            return !isPublic() && access.contains(":") ? Optional.of(access.substring(0, access.indexOf(':'))) : Optional.empty();
        }

        public Optional<String> requiredRole() {
            return resourceKind().map(kind -> access.substring(kind.length() + 1));
        }

        public List<Param> in(String where) {
            return params.stream().filter(p -> p.in().equals(where)).toList();
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public static OpenApiOperations fetch(String baseUrl) {
        try {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(baseUrl + "/q/openapi?format=json"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new AssertionError("GET /q/openapi answered " + answer.statusCode());
            }
            return of(JSON.readTree(answer.body()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static OpenApiOperations of(JsonNode document) {
        List<Op> ops = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> methods = path.getValue().fields(); methods.hasNext(); ) {
                Map.Entry<String, JsonNode> method = methods.next();
                if (method.getKey().equals("parameters")) {
                    continue;
                }
                JsonNode op = method.getValue();
                List<Param> params = new ArrayList<>();
                op.path("parameters").forEach(p -> params.add(new Param(p.path("name").asText(), p.path("in").asText(),
                        type(document, p.path("schema")))));
                Optional<String> bodyType = Optional.empty();
                Optional<JsonNode> bodySchema = Optional.empty();
                for (Iterator<Map.Entry<String, JsonNode>> content = op.path("requestBody").path("content").fields(); content.hasNext(); ) {
                    Map.Entry<String, JsonNode> media = content.next();
                    bodyType = Optional.of(media.getKey());
                    bodySchema = Optional.of(resolve(document, media.getValue().path("schema")));
                }
                JsonNode security = op.get("security");
                ops.add(new Op(method.getKey().toUpperCase(), path.getKey(), List.copyOf(params), bodyType, bodySchema,
                        op.path("x-continuum-access").asText(""), security == null || !security.isEmpty()));
            }
        }
        return new OpenApiOperations(document, List.copyOf(ops));
    }

    /** A schema with its $ref followed (one level: enough to see a body's properties and their types). */
    public static JsonNode resolve(JsonNode document, JsonNode schema) {
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asText().substring("#/components/schemas/".length());
            return document.path("components").path("schemas").path(name);
        }
        return schema;
    }

    /** The JSON type a schema asks for: string, integer, number, boolean, array, object, or "any". */
    public static String type(JsonNode document, JsonNode schema) {
        JsonNode resolved = resolve(document, schema);
        JsonNode type = resolved.get("type");
        if (type == null) {
            return resolved.has("properties") ? "object" : "any";
        }
        return type.isArray() ? type.get(0).asText() : type.asText();
    }
}
