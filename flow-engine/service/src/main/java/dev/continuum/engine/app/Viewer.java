package dev.continuum.engine.app;

/**
 * On whose behalf a use case runs. {@code restricted} is false only when API authentication is
 * off (one local user owns everything), which keeps listing on its fast path.
 */
public record Viewer(String id, boolean restricted) {

    public static Viewer of(String id) {
        return new Viewer(id, true);
    }

    public static Viewer unrestricted(String id) {
        return new Viewer(id, false);
    }
}
