package dev.continuum.provider.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Carries files with the transfer provider (docs/transfer.md), called as the engine calls it: the Action Provider
 * API through {@link ActionProviderClient}, {@code Authorization: Bearer} with a token from {@code token} (a service
 * account with scope {@code actions:transfer}, e.g. the realm's {@code continuum-checkpoint-carrier}; null sends
 * none, for a provider without sign-in). Every transfer verifies each chunk's checksum at the destination
 * ({@code verify_checksum}); a caller may compare a whole file's digest on top (the training scheduler does).
 * Blocking: called on the caller's own worker thread, never on an event loop. Used by the training provider
 * (checkpoints between sites) and the inference provider (a job's input to the site it runs at).
 */
public final class TransferCarrier implements FileCarrier {
    private final ActionProviderClient client;
    private final String transferUrl;
    private final Supplier<String> token;
    private final Duration timeout;

    /** {@code transferUrl}: the transfer action's URL, e.g. {@code http://dc:8093/providers/transfer/transfer}. */
    public TransferCarrier(ActionProviderClient client, String transferUrl, Supplier<String> token, Duration timeout) {
        this.client = client;
        this.transferUrl = transferUrl;
        this.token = token;
        this.timeout = timeout;
    }

    @Override
    public String start(Order order) throws CarryException {
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("source_endpoint_id", order.sourceEndpoint())
                .put("destination_endpoint_id", order.destinationEndpoint())
                .put("verify_checksum", true)
                .put("label", label(order));
        body.putArray("transfer_items").addObject().put("source_path", order.sourcePath())
                .put("destination_path", order.destinationPath()).put("recursive", order.recursive());
        return await(client.run(transferUrl, ActionRequest.of(order.requestId(), body).withLabel(label(order)),
                context())).actionId();
    }

    @Override
    public Progress status(String transferAction) throws CarryException {
        ActionStatus s = await(client.status(transferUrl, transferAction, context()));
        JsonNode d = s.details();
        long bytes = d.path("bytes_transferred").asLong(0);
        return switch (s.status()) {
            case SUCCEEDED -> new Progress.Succeeded(bytes, d.path("checksum_algorithm").asText(""));
            case FAILED -> new Progress.Failed(d.path("code").asText("Failed") + ": "
                    + d.path("description").asText(s.displayStatus() == null ? "" : s.displayStatus()));
            case ACTIVE, INACTIVE -> new Progress.Active(bytes);
        };
    }

    private static String label(Order order) {
        // Globus labels are short (the engine takes 1 to 128 characters): the endpoints say the rest. The same
        // cut label goes in the body and the request, cut between code points so no surrogate pair is split.
        String label = order.label();
        return label.codePointCount(0, label.length()) <= 128 ? label
                : label.substring(0, label.offsetByCodePoints(0, 128));
    }

    private CallContext context() throws CarryException {
        String bearer;
        try {
            bearer = token.get();
        } catch (RuntimeException e) {
            throw new CarryException("no token for the transfer provider: " + e.getMessage());
        }
        return bearer == null ? CallContext.anonymous() : CallContext.bearer(bearer);
    }

    private <T> T await(CompletionStage<T> call) throws CarryException {
        try {
            return call.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new CarryException(String.valueOf(e.getCause() == null ? e : e.getCause().getMessage()),
                    e.getCause() instanceof ActionProviderException away && away.retryable());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new CarryException("the transfer provider at " + transferUrl + " did not answer within " + timeout, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CarryException("interrupted");
        }
    }

    @Override
    public String toString() {
        return "TransferCarrier[" + transferUrl + "]";
    }
}
