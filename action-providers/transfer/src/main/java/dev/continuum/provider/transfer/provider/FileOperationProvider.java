package dev.continuum.provider.transfer.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.InvalidInputException;
import dev.continuum.provider.transfer.endpoint.Access;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.Entry;
import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.UnsafePathException;
import java.io.IOException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/**
 * The synchronous file operations of the Globus transfer action provider: {@code ls},
 * {@code mkdir} and {@code delete}, on one endpoint ({@code endpoint_id}, or {@code endpoint} as
 * in the Transfer API). Each finishes within {@code /run}.
 */
public final class FileOperationProvider implements ActionProvider {

    public enum Operation { LS, MKDIR, DELETE }

    private static final DateTimeFormatter GLOBUS_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ssxxx")
            .withZone(ZoneOffset.UTC);

    private final Operation operation;
    private final EndpointRegistry endpoints;

    public FileOperationProvider(Operation operation, EndpointRegistry endpoints) {
        this.operation = operation;
        this.endpoints = endpoints;
    }

    @Override
    public ProviderDescription describe() {
        return switch (operation) {
            case LS -> ProviderDescription.builder("Continuum Transfer: ls").subtitle("Lists a directory on an endpoint")
                    .scope("urn:continuum:providers:transfer").synchronous(true).inputSchema(Schemas.LS).build();
            case MKDIR -> ProviderDescription.builder("Continuum Transfer: mkdir").subtitle("Creates a directory on an endpoint")
                    .scope("urn:continuum:providers:transfer").synchronous(true).inputSchema(Schemas.MKDIR).build();
            case DELETE -> ProviderDescription.builder("Continuum Transfer: delete").subtitle("Deletes files or directories on an endpoint")
                    .scope("urn:continuum:providers:transfer").synchronous(true).inputSchema(Schemas.DELETE).build();
        };
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        JsonNode body = request.body();
        String endpointId = Bodies.requiredText(body, "endpoint_id", "endpoint");
        Endpoint endpoint;
        try {
            endpoint = endpoints.require(endpointId, ctx.caller(), operation == Operation.LS ? Access.READ : Access.WRITE);
        } catch (EndpointRegistry.EndpointAccessException e) {
            ctx.log(e.code(), e.getMessage(), null);
            return ctx.failed(e.code().equals("PermissionDenied") ? "Permission denied" : "Endpoint not found",
                    Bodies.object().put("code", e.code()).put("description", e.getMessage()));
        }
        try {
            return switch (operation) {
                case LS -> ls(body, endpoint, ctx);
                case MKDIR -> mkdir(body, endpoint, ctx);
                case DELETE -> delete(body, endpoint, ctx);
            };
        } catch (UnsafePathException e) {
            throw new InvalidInputException("/body", e.getMessage());
        } catch (IOException e) {
            return ctx.failed("Failed", Bodies.object().put("code", "StorageError").put("description", e.getMessage()));
        }
    }

    private ActionStatus ls(JsonNode body, Endpoint endpoint, ActionContext ctx) throws IOException {
        JsonNode rawPath = body.has("path") ? body.get("path") : com.fasterxml.jackson.databind.node.TextNode.valueOf("/~/");
        EndpointPath path = Bodies.path(rawPath, "/body/path");
        Optional<Entry> target = endpoint.storage().stat(path);
        if (target.isEmpty()) {
            return notFound(ctx, path);
        }
        List<Entry> entries = target.get().isDirectory() ? endpoint.storage().list(path) : List.of(target.get());
        int offset = body.path("offset").asInt(0);
        int limit = body.has("limit") ? body.get("limit").asInt() : 100_000;
        ArrayNode data = Bodies.object().arrayNode();
        entries.stream().skip(offset).limit(limit).forEach(e -> data.addObject()
                .put("DATA_TYPE", "file")
                .put("name", e.name())
                .put("type", e.isDirectory() ? "dir" : e.isFile() ? "file" : "other")
                .put("size", e.size())
                .put("last_modified", GLOBUS_TIME.format(e.modified())));
        ObjectNode details = Bodies.object();
        details.put("DATA_TYPE", "file_list").put("endpoint_id", endpoint.id()).put("path", path.toString())
                .put("total", entries.size()).put("length", data.size()).put("offset", offset).put("limit", limit);
        details.set("DATA", data);
        return ctx.succeeded(details);
    }

    private ActionStatus mkdir(JsonNode body, Endpoint endpoint, ActionContext ctx) throws IOException {
        EndpointPath path = Bodies.path(body.get("path"), "/body/path");
        Optional<Entry> existing = endpoint.storage().stat(path);
        if (existing.isPresent() && !existing.get().isDirectory()) {
            return ctx.failed("Failed", Bodies.object().put("code", "NotADirectory")
                    .put("description", path + " exists and is not a directory"));
        }
        endpoint.storage().mkdirs(path);
        ctx.log("DirectoryCreated", path.toString(), null);
        return ctx.succeeded(Bodies.object().put("code", existing.isPresent() ? "Exists" : "DirectoryCreated")
                .put("endpoint_id", endpoint.id()).put("path", path.toString()));
    }

    private ActionStatus delete(JsonNode body, Endpoint endpoint, ActionContext ctx) throws IOException {
        String field = body.has("items") ? "items" : body.has("DATA") ? "DATA" : null;
        if (field == null || !body.get(field).isArray() || body.get(field).isEmpty()) {
            throw new InvalidInputException("/body/items", "items (or DATA) must be a non-empty array of paths");
        }
        boolean recursive = Boolean.TRUE.equals(Bodies.optionalBoolean(body, "recursive", "/body/recursive"));
        boolean ignoreMissing = Boolean.TRUE.equals(Bodies.optionalBoolean(body, "ignore_missing", "/body/ignore_missing"));
        JsonNode items = body.get(field);
        List<EndpointPath> paths = new java.util.ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            JsonNode raw = item.isObject() ? item.get("path") : item;
            paths.add(Bodies.path(raw, "/body/" + field + "/" + i + (item.isObject() ? "/path" : "")));
        }
        ArrayNode deleted = Bodies.object().arrayNode();
        ArrayNode missing = Bodies.object().arrayNode();
        for (EndpointPath path : paths) {
            if (path.isRoot()) {
                throw new InvalidInputException("/body/" + field, "the endpoint root itself cannot be deleted");
            }
            if (endpoint.storage().delete(path, recursive)) {
                deleted.add(path.toString());
                ctx.log("Deleted", path.toString(), null);
            } else {
                missing.add(path.toString());
            }
        }
        ObjectNode details = Bodies.object().put("endpoint_id", endpoint.id());
        details.set("deleted", deleted);
        details.set("missing", missing);
        if (!missing.isEmpty() && !ignoreMissing) {
            details.put("code", "NotFound").put("description", missing.size() + " path(s) did not exist; set ignore_missing to accept that");
            return ctx.failed("Not found", details);
        }
        return ctx.succeeded(details);
    }

    private ActionStatus notFound(ActionContext ctx, EndpointPath path) {
        return ctx.failed("Not found", Bodies.object().put("code", "NotFound").put("description", path + " does not exist"));
    }
}
