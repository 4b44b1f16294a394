package dev.continuum.paths;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a path a user typed into an {@link EndpointPath} confined to the endpoint root, or refuses
 * it with an {@link UnsafePathException} naming the rule.
 *
 * <p>Paths are collection paths as in Globus: {@code /data/x}, {@code data/x}, {@code /~/data/x}
 * and {@code ~/data/x} all mean {@code data/x} under the endpoint root, so a leading slash can
 * never reach the host's file system root. Refused, rather than repaired, because a repaired path
 * might not be the one the user meant:
 * <ul>
 *   <li>{@code ..} segments, even ones that would stay inside the root;</li>
 *   <li>NUL, other control characters, invisible format characters (bidi overrides, zero-width),
 *       unpaired surrogates;</li>
 *   <li>percent-encoded sequences ({@code %2e%2e%2f}) — paths travel in JSON and need no encoding;</li>
 *   <li>backslashes (a second separator on other systems);</li>
 *   <li>compatibility characters that Unicode NFKC folds into something else (fullwidth dots
 *       {@code ．．}, one-dot leaders), which other tools may fold into {@code ..} or {@code /},
 *       and slash look-alikes such as the division slash {@code ∕};</li>
 *   <li>{@code ~user} home references, segments over 255 UTF-8 bytes, paths over 4096 characters.</li>
 * </ul>
 * Accepted paths are returned in Unicode NFC. Symlinks are a property of the storage, not of the
 * string: each storage checks them when it resolves the path (see {@code LocalStorage}).
 */
public final class PathNormalizer {

    public static final int MAX_PATH_CHARS = 4096;
    public static final int MAX_SEGMENT_BYTES = 255;

    /** Slashes NFKC leaves alone but a reader (or a careless tool) takes for '/' or '\\'. */
    private static final String SLASH_LOOKALIKES = "\u2044\u2215\u29f8\u29f9\u2571\u2572\u27cb\u27cd";

    private PathNormalizer() {}

    public static EndpointPath normalize(String raw) {
        if (raw == null) {
            throw new UnsafePathException(null, "a path is required");
        }
        if (raw.length() > MAX_PATH_CHARS) {
            throw new UnsafePathException(raw, "longer than " + MAX_PATH_CHARS + " characters");
        }
        checkCharacters(raw, raw);
        String nfc = Normalizer.normalize(raw, Normalizer.Form.NFC);
        if (!Normalizer.normalize(raw, Normalizer.Form.NFKC).equals(nfc)) {
            throw new UnsafePathException(raw, "contains Unicode compatibility characters (e.g. fullwidth dots "
                    + "or slashes) that other tools may read as different characters");
        }
        String rest = stripHome(raw, nfc);
        List<String> segments = new ArrayList<>();
        for (String segment : rest.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            segments.add(checkSegment(raw, segment));
        }
        return new EndpointPath(segments);
    }

    /** Checks one name (a path segment or a listed entry); returns it unchanged when it is safe. */
    static String checkSegment(String raw, String segment) {
        if (segment == null || segment.isEmpty()) {
            throw new UnsafePathException(raw, "empty name");
        }
        checkCharacters(raw, segment);
        if (segment.equals("..")) {
            throw new UnsafePathException(raw, "'..' segments are not allowed");
        }
        if (segment.equals(".")) {
            throw new UnsafePathException(raw, "'.' is not a name");
        }
        if (segment.indexOf('/') >= 0) {
            throw new UnsafePathException(raw, "a name cannot contain '/'");
        }
        if (segment.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
            throw new UnsafePathException(raw, "a segment is longer than " + MAX_SEGMENT_BYTES + " bytes");
        }
        return segment;
    }

    private static String stripHome(String raw, String nfc) {
        String rest = nfc;
        if (rest.startsWith("/~/") || rest.equals("/~")) {
            rest = rest.substring(2);
        } else if (rest.startsWith("~/") || rest.equals("~")) {
            rest = rest.substring(1);
        } else if (rest.startsWith("~") || rest.startsWith("/~")) {
            throw new UnsafePathException(raw, "'~user' home references are not supported; use /~/ or a path from the endpoint root");
        }
        return rest;
    }

    private static void checkCharacters(String raw, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                throw new UnsafePathException(raw, "contains a NUL character");
            }
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                throw new UnsafePathException(raw, "contains a control character");
            }
            if (c == '\\') {
                throw new UnsafePathException(raw, "contains a backslash; use '/' as the separator");
            }
            if (c == '%' && i + 2 < text.length() && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2))) {
                throw new UnsafePathException(raw, "contains a percent-encoded sequence; send the path unencoded");
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    throw new UnsafePathException(raw, "contains an unpaired surrogate (invalid Unicode)");
                }
                int cp = Character.toCodePoint(c, text.charAt(i + 1));
                checkCodePoint(raw, cp);
                i++;
                continue;
            }
            if (Character.isLowSurrogate(c)) {
                throw new UnsafePathException(raw, "contains an unpaired surrogate (invalid Unicode)");
            }
            checkCodePoint(raw, c);
        }
    }

    private static void checkCodePoint(String raw, int cp) {
        if (SLASH_LOOKALIKES.indexOf(cp) >= 0) {
            throw new UnsafePathException(raw, String.format("contains U+%04X, which looks like a path separator", cp));
        }
        int type = Character.getType(cp);
        if (type == Character.FORMAT) {
            throw new UnsafePathException(raw, String.format(
                    "contains the invisible format character U+%04X (bidi or zero-width)", cp));
        }
        if (type == Character.UNASSIGNED || type == Character.PRIVATE_USE) {
            throw new UnsafePathException(raw, String.format("contains the unassigned or private code point U+%04X", cp));
        }
        if (type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
            throw new UnsafePathException(raw, "contains a line separator");
        }
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
