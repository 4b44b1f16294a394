package dev.continuum.provider.transfer.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.server.InvalidInputException;
import dev.continuum.provider.transfer.engine.ChecksumAlgorithm;
import dev.continuum.provider.transfer.engine.SyncLevel;
import dev.continuum.provider.transfer.engine.TransferItem;
import java.util.ArrayList;
import java.util.List;

/**
 * A transfer body in either Globus shape:
 * {@code source_endpoint_id + destination_endpoint_id + transfer_items} (the Flows action
 * provider) or {@code source_endpoint + destination_endpoint + DATA} (the Transfer API's task
 * document). Items carry {@code source_path}, {@code destination_path}, optional {@code recursive}.
 * {@code checksum_algorithm} ({@code sha256} | {@code blake3}) is Continuum's own; absent, the
 * provider's default ({@link ChecksumAlgorithm#defaultForThisJvm}).
 */
public record TransferRequest(String sourceEndpoint, String destinationEndpoint, List<TransferItem> items,
                              SyncLevel syncLevel, boolean verifyChecksum, ChecksumAlgorithm checksumAlgorithm,
                              String label) {

    public static TransferRequest parse(JsonNode body) {
        String source = Bodies.requiredText(body, "source_endpoint_id", "source_endpoint");
        String destination = Bodies.requiredText(body, "destination_endpoint_id", "destination_endpoint");
        String itemsField = body.has("transfer_items") ? "transfer_items" : body.has("DATA") ? "DATA" : null;
        if (itemsField == null) {
            throw new InvalidInputException("/body/transfer_items", "transfer_items (or DATA) is required");
        }
        JsonNode array = body.get(itemsField);
        if (!array.isArray() || array.isEmpty()) {
            throw new InvalidInputException("/body/" + itemsField, itemsField + " must be a non-empty array of items");
        }
        Boolean defaultRecursive = Bodies.optionalBoolean(body, "recursive", "/body/recursive");
        List<TransferItem> items = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String pointer = "/body/" + itemsField + "/" + i;
            JsonNode item = array.get(i);
            if (!item.isObject()) {
                throw new InvalidInputException(pointer, "an item must be an object with source_path and destination_path");
            }
            Boolean recursive = Bodies.optionalBoolean(item, "recursive", pointer + "/recursive");
            items.add(new TransferItem(Bodies.path(item.get("source_path"), pointer + "/source_path"),
                    Bodies.path(item.get("destination_path"), pointer + "/destination_path"),
                    recursive == null ? defaultRecursive : recursive));
        }
        SyncLevel sync = Bodies.optionalParsed(body, "sync_level", SyncLevel::parse);
        Boolean verify = Bodies.optionalBoolean(body, "verify_checksum", "/body/verify_checksum");
        ChecksumAlgorithm algorithm = Bodies.optionalParsed(body, "checksum_algorithm", ChecksumAlgorithm::parse);
        if (algorithm == null) {
            algorithm = ChecksumAlgorithm.defaultForThisJvm();
        }
        JsonNode label = body.get("label");
        return new TransferRequest(source, destination, List.copyOf(items), sync, verify == null || verify, algorithm,
                label == null || label.isNull() ? null : label.asText());
    }
}
