package dev.continuum.edge.gateway.testing;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The real 579 kB OCR direction classifier from npm. The build fetches it once into a cache (edge-gateway's
 * {@code process-test-classes} step, {@link NpmModels}); tests only read that cache and never go to the network.
 * Without it a test is skipped with the reason, unless {@value #REQUIRE} is set (CI sets it): then it fails, so
 * a model test can never pass unnoticed by being skipped.
 */
public final class TestModels {

    public static final long[] CLS_SHAPE = {1, 3, 48, 192};
    static final String REQUIRE = "CONTINUUM_REQUIRE_MODELS";

    private TestModels() {}

    public static Path ocrClassifier() {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("target/npm-models");
        var model = NpmModels.fromCache(dir);
        if (model.isEmpty()) {
            String why = NpmModels.OCR_PACKAGE + " is not in the build's cache (" + NpmModels.cacheFile(NpmModels.defaultCacheDir(), NpmModels.OCR_PACKAGE)
                    + "): the build could not download it; see the WARNING of edge-gateway's fetch-demo-model step";
            String required = System.getenv(REQUIRE);
            if (required != null && !required.isBlank() && !required.equals("0")) {
                Assertions.fail(REQUIRE + " is set and " + why);
            }
            Assumptions.abort("skipped: " + why);
        }
        return model.get();
    }

    /** A deterministic pseudo-image in [0, 1), shaped for the classifier. */
    public static float[] image(long seed, int batch) {
        Random r = new Random(seed);
        float[] v = new float[batch * 3 * 48 * 192];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.nextFloat();
        }
        return v;
    }
}
