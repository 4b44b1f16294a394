package dev.continuum.provider.training.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;

/**
 * Labelled points the demo classifier learns: {@code features} rows of {@value Classifier#IN} numbers and
 * {@code labels} in {@code 0..}{@value Classifier#CLASSES}{@code -1}. As a file (what an instrument leaves and
 * a flow gathers): {@code {"features": [[x0, x1, x2, x3], ...], "labels": [0, 2, ...]}}.
 */
record Dataset(float[][] features, int[] labels) {

    /**
     * {@code n} points of three clusters, class {@code i % 3}: the first two features around
     * (2 cos θ, 2 sin θ) with θ = 2πc/3, the third around c − 1, the fourth noise.
     */
    static Dataset generated(int n, long seed) {
        Random r = new Random(seed);
        float[][] x = new float[n][Classifier.IN];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            int c = i % Classifier.CLASSES;
            double angle = 2 * Math.PI * c / Classifier.CLASSES;
            x[i][0] = (float) (2 * Math.cos(angle) + r.nextGaussian() * 0.9);
            x[i][1] = (float) (2 * Math.sin(angle) + r.nextGaussian() * 0.9);
            x[i][2] = (float) (c - 1 + r.nextGaussian() * 1.2);
            x[i][3] = (float) r.nextGaussian();
            y[i] = c;
        }
        return new Dataset(x, y);
    }

    /** Reads a dataset file, refusing one the classifier cannot learn from, saying where it is wrong. */
    static Dataset read(Path file) throws IOException {
        JsonNode doc = new ObjectMapper().readTree(file.toFile());
        JsonNode rows = doc.path("features");
        JsonNode labels = doc.path("labels");
        if (!rows.isArray() || !labels.isArray() || rows.isEmpty() || rows.size() != labels.size()) {
            throw new IOException(file + ": needs \"features\" and \"labels\" arrays of the same, non-zero length");
        }
        float[][] x = new float[rows.size()][Classifier.IN];
        int[] y = new int[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            JsonNode row = rows.get(i);
            if (!row.isArray() || row.size() != Classifier.IN) {
                throw new IOException(file + ": features[" + i + "] must be " + Classifier.IN + " numbers");
            }
            for (int j = 0; j < Classifier.IN; j++) {
                x[i][j] = (float) row.get(j).asDouble();
            }
            y[i] = labels.get(i).asInt(-1);
            if (y[i] < 0 || y[i] >= Classifier.CLASSES) {
                throw new IOException(file + ": labels[" + i + "] must be 0.." + (Classifier.CLASSES - 1));
            }
        }
        return new Dataset(x, y);
    }
}
