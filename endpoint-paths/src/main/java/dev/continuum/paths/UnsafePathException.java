package dev.continuum.paths;

/**
 * A user-supplied path was refused because it could leave its endpoint root or is ambiguous
 * (dot-dot segments, percent-encoding, control or invisible characters, symlinks leading out).
 * The message says which rule refused it and is safe to show to the caller.
 */
public final class UnsafePathException extends RuntimeException {

    private final String path;

    public UnsafePathException(String path, String reason) {
        super(reason, null, false, false);
        this.path = path;
    }

    /** The path as the user wrote it, with control characters escaped so it prints safely. */
    public String path() {
        return path;
    }

    @Override
    public String getMessage() {
        return "path " + quoted(path) + " refused: " + super.getMessage();
    }

    static String quoted(String raw) {
        if (raw == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        raw.codePoints().limit(200).forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f || Character.getType(cp) == Character.FORMAT
                    || (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE)) {
                out.append(String.format("\\u%04x", cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.append(raw.length() > 200 ? "...\"" : "\"").toString();
    }
}
