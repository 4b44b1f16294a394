package dev.continuum.cli.files;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads JSON text from files and arguments, reporting syntax errors as {@code where:line:column: message}. */
public final class JsonFiles {

    private JsonFiles() {}

    public static String readText(Path path) {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new FileProblem(FileProblem.Kind.UNREADABLE, path + ": no such file");
        } catch (IOException e) {
            throw new FileProblem(FileProblem.Kind.UNREADABLE, path + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    private static String readStdin() {
        try {
            return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new FileProblem(FileProblem.Kind.UNREADABLE, "standard input cannot be read (" + e.getMessage() + ")");
        }
    }

    public static JsonNode parse(String text, String where, ObjectMapper json) {
        try {
            JsonNode node = json.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new FileProblem(FileProblem.Kind.NOT_JSON, where + ": is empty; expected JSON");
            }
            return node;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String position = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
            throw new FileProblem(FileProblem.Kind.NOT_JSON, where + position + ": not valid JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * A run input given on the command line: the path of a JSON file when such a file exists, otherwise JSON text
     * (so {@code --input '{"name":"Ada"}'} and {@code --input input.json} both work); {@code -} reads standard input.
     */
    public static JsonNode fileOrJson(String value, ObjectMapper json) {
        if (value.equals("-")) {
            return parse(readStdin(), "standard input", json);
        }
        Path path = Path.of(value.strip().isEmpty() ? "." : value);
        if (!value.stripLeading().startsWith("{") && !value.stripLeading().startsWith("[") && Files.isRegularFile(path)) {
            return parse(readText(path), value, json);
        }
        try {
            return json.readTree(value);
        } catch (JsonProcessingException e) {
            throw new FileProblem(FileProblem.Kind.NOT_JSON,
                    "'" + value + "' is neither an existing file nor valid JSON: " + e.getOriginalMessage());
        }
    }
}
