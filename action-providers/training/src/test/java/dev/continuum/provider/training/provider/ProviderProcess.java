package dev.continuum.provider.training.provider;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The training provider as an operator starts it: {@link TrainingProviderMain} in its own JVM with a command line,
 * its output in a log file; {@link #url()} from the line it prints once it listens. Closing kills it.
 */
final class ProviderProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("training provider on (http://\\S+)");
    private final Process process;
    private final Path log;
    private final String url;

    private ProviderProcess(Process process, Path log, String url) {
        this.process = process;
        this.log = log;
        this.url = url;
    }

    static ProviderProcess start(Path log, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                TrainingProviderMain.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread copier = new Thread(() -> copy(p, log, url), "provider-log");
        copier.setDaemon(true);
        copier.start();
        try {
            return new ProviderProcess(p, log, url.get(120, TimeUnit.SECONDS));
        } catch (Exception e) {
            p.destroyForcibly();
            throw new IllegalStateException("the provider did not start: " + Files.readString(log), e);
        }
    }

    private static void copy(Process p, Path log, CompletableFuture<String> url) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             var out = Files.newBufferedWriter(log)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.write(line);
                out.newLine();
                out.flush();
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    url.complete(m.group(1));
                }
            }
        } catch (IOException e) {
            url.completeExceptionally(e);
        }
        url.completeExceptionally(new IllegalStateException("its output ended"));
    }

    String url() {
        return url;
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
