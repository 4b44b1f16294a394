package dev.continuum.flow.validation;

/**
 * One problem in a flow definition or input.
 *
 * @param pointer RFC 6901 JSON pointer of the offending place, e.g. {@code /States/Foo/Next}
 * @param message a plain sentence saying what is wrong and, where it helps, what to write instead
 */
public record ValidationIssue(String pointer, String message) {

    /** Escapes one name for use as a JSON pointer token ({@code ~} and {@code /}). */
    public static String token(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
