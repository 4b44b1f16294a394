package dev.continuum.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The secrets a running {@code up} uses, each known by where it came from (never shown), and a search of its logs
 * for them: every secret-named variable in the environment of every process {@code up} started (the Keycloak admin
 * password it generates, client secrets, the vault key, the operator's edge secret and broker password, the
 * gateways' bootstrap tokens), the device credentials the gateways were granted (their MQTT passwords), the local
 * realm's client secrets and demo passwords, tokens a caller obtained, and anything shaped like a JWT (the engine's
 * delegated tokens and up's own sign-in, which no test sees).
 */
final class SecretsInLogs {

    /** Shorter values ("true", ports) would match by chance; every real secret here is longer. */
    private static final int SHORTEST = 8;
    private static final Pattern SECRET_NAME = Pattern.compile("SECRET|PASSWORD|TOKEN|VAULT_KEY");
    private static final Pattern JWT = Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*");

    private final Map<String, String> secrets = new LinkedHashMap<>();

    /** {@code origin} says where the secret came from; it is what a failure names instead of the value. */
    void add(String origin, String value) {
        if (value != null && value.length() >= SHORTEST) {
            secrets.putIfAbsent(value, origin);
        }
    }

    /** Where the secrets came from (to check that the search knows the ones it must). */
    String origins() {
        return String.join("; ", secrets.values());
    }

    /**
     * The secret-named variables {@code up} gave the processes it started (inherited ones, which the test's own
     * environment also has, are the user's business), read from /proc while they run.
     */
    void addEnvironmentOf(ProcessHandle up) {
        Map<String, String> inherited = System.getenv();
        up.descendants().forEach(child -> {
            byte[] environ;
            try {
                environ = Files.readAllBytes(Path.of("/proc", String.valueOf(child.pid()), "environ"));
            } catch (IOException gone) {
                return; // a short-lived helper that has exited (e.g. the one that prints a bootstrap token)
            }
            String command = child.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("?");
            for (String entry : new String(environ, StandardCharsets.UTF_8).split("\0")) {
                int eq = entry.indexOf('=');
                if (eq <= 0) {
                    continue;
                }
                String name = entry.substring(0, eq);
                String value = entry.substring(eq + 1);
                if (SECRET_NAME.matcher(name).find() && !name.endsWith("_FILE") && !value.equals(inherited.get(name))) {
                    add(name + " of process " + child.pid() + " (" + command + ")", value);
                }
            }
        });
    }

    /** The local realm's client secrets and its demo users' passwords. */
    void addRealmSecrets() throws IOException {
        JsonNode realm;
        try (InputStream in = SecretsInLogs.class.getResourceAsStream("/keycloak/continuum-realm.json")) {
            realm = new ObjectMapper().readTree(in);
        }
        realm.path("clients").forEach(c -> add("the realm's secret of client " + c.path("clientId").asText(), c.path("secret").asText(null)));
        realm.path("users").forEach(u -> u.path("credentials").forEach(
                c -> add("the realm's password of user " + u.path("username").asText(), c.path("value").asText(null))));
    }

    /** Every file under {@code dir} named {@code name}, e.g. each gateway's {@code device-credential}. */
    void addFilesNamed(Path dir, String name) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().equals(name) && Files.isRegularFile(f)).toList()) {
                add("the content of " + dir.relativize(file), Files.readString(file).trim());
            }
        }
    }

    /** The logs the stack wrote under its data directory: every {@code *.log} file, at any depth. */
    static List<Path> logsUnder(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log") && Files.isRegularFile(f)).sorted().toList();
        }
    }

    /** Each place a secret or a JWT occurs in {@code file}, as "file:line: origin" — never the value. */
    List<String> foundIn(Path file) {
        List<String> found = new ArrayList<>();
        List<String> lines;
        try {
            // a log may hold bytes that are not UTF-8 (a crash dump); they cannot hide an ASCII secret
            lines = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            for (Map.Entry<String, String> secret : secrets.entrySet()) {
                if (line.contains(secret.getKey())) {
                    found.add(file + ":" + (i + 1) + ": " + secret.getValue());
                }
            }
            if (JWT.matcher(line).find()) {
                found.add(file + ":" + (i + 1) + ": a JWT (an access, refresh or ID token)");
            }
        }
        return found;
    }
}
