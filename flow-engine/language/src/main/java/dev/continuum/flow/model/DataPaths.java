package dev.continuum.flow.model;

/**
 * Where a state reads its input and writes its result. Each path is a JSONPath string
 * ({@code "$"} = the whole document; Globus also writes {@code "$."} for it) or {@code null}
 * when the flow gave JSON {@code null}: an InputPath of null gives the state an empty object,
 * a ResultPath of null discards the result and keeps the input (as in the Amazon States Language).
 */
public record DataPaths(String inputPath, String resultPath) {

    public static final String WHOLE_DOCUMENT = "$";

    public static DataPaths defaults() {
        return new DataPaths(WHOLE_DOCUMENT, WHOLE_DOCUMENT);
    }
}
