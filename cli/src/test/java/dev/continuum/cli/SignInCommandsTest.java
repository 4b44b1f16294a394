package dev.continuum.cli;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.cli.signin.BearerTokens;
import dev.continuum.cli.signin.SignIn;
import dev.continuum.cli.signin.SignInStore;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Signing in from the CLI against the real Keycloak (one per test JVM) with the Continuum realm. The
 * device code is confirmed the way a person does it: a browser-like HTTP client with cookies opens the
 * printed address, fills in Keycloak's own login form and submits it. The engine is {@link FakeEngine},
 * which records the Authorization header each call carried.
 */
class SignInCommandsTest {

    private static final String FLOWS_PAGE = "{\"flows\":[],\"limit\":100,\"has_next_page\":false}";

    @TempDir
    Path config;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void environment() {
        env.put("CONTINUUM_CONFIG_DIR", config.resolve("continuum").toString());
        env.put("CONTINUUM_AUTH_ISSUER", KeycloakServer.shared().issuer());
    }

    @Test
    void shouldSignInWithADeviceCodeConfirmedInTheBrowserAndSendTheTokenOnEveryCall() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> login = CompletableFuture.supplyAsync(
                () -> Main.run(new String[] {"login"}, new PrintWriter(out, true), new PrintWriter(err, true), env));

        String address = awaitAddress(out, err, login);
        confirmInBrowser(address, "scientist", "scientist-local-only");

        assertThat(login.get(2, TimeUnit.MINUTES)).as("login exit code; stderr: " + err).isZero();
        assertThat(out.toString()).contains("Signed in as scientist at " + KeycloakServer.shared().issuer());
        Path stored = config.resolve("continuum/sign-in.json");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(stored))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(stored.getParent()))).isEqualTo("rwx------");

        try (FakeEngine engine = new FakeEngine().on("GET", "/flows", 200, FLOWS_PAGE)) {
            Cli.Result flows = run("flows", "--api", engine.api());
            assertThat(flows.exitCode()).as(flows.err()).isZero();
            String sent = bearerOf(engine.only("GET", "/flows"));
            assertThat(JwtClaims.readUnverified(sent).username()).contains("scientist");
            assertThat(JwtClaims.readUnverified(sent).audience()).contains("continuum-engine");
        }
    }

    @Test
    void shouldRenewTheAccessTokenWithTheRefreshTokenWhenItHasExpired() throws Exception {
        SignInStore store = new SignInStore(config.resolve("continuum"));
        SignIn fresh = signInWithPassword("scientist2");
        store.save(new SignIn(fresh.issuer(), fresh.clientId(), fresh.username(), fresh.accessToken(),
                Instant.now().minusSeconds(5), fresh.refreshToken(), fresh.refreshExpiresAt()));

        try (FakeEngine engine = new FakeEngine().on("GET", "/flows", 200, FLOWS_PAGE)) {
            Cli.Result flows = run("flows", "--api", engine.api());
            assertThat(flows.exitCode()).as(flows.err()).isZero();
            String sent = bearerOf(engine.only("GET", "/flows"));
            assertThat(sent).isNotEqualTo(fresh.accessToken());
            assertThat(JwtClaims.readUnverified(sent).username()).contains("scientist2");
            assertThat(store.load().orElseThrow().accessToken()).as("the renewed token is kept").isEqualTo(sent);
            assertThat(store.load().orElseThrow().accessExpiresAt()).isAfter(Instant.now());
        }
    }

    @Test
    void shouldRevokeTheSignInAndForgetItOnLogout() throws Exception {
        SignInStore store = new SignInStore(config.resolve("continuum"));
        SignIn signIn = signInWithPassword("scientist");
        store.save(signIn);

        Cli.Result logout = run("logout");

        assertThat(logout.exitCode()).as(logout.err()).isZero();
        assertThat(logout.out()).contains("Signed out scientist");
        assertThat(store.file()).doesNotExist();
        assertThatThrownBy(() -> new TokenClient(signIn.issuer()).refresh(BearerTokens.CLI, signIn.refreshToken().orElseThrow(), null))
                .as("a copy of the file is worthless: the refresh token was revoked at Keycloak")
                .isInstanceOfSatisfying(TokenRefusedException.class, e -> assertThat(e.needsSignIn()).isTrue());
        try (FakeEngine engine = new FakeEngine().on("GET", "/flows", 200, FLOWS_PAGE)) {
            run("flows", "--api", engine.api());
            assertThat(engine.only("GET", "/flows").authorization()).as("no token after logout").isNull();
        }
    }

    @Test
    void shouldAskThePersonToLoginWhenTheStoredSignInWasRevokedElsewhere() throws Exception {
        SignInStore store = new SignInStore(config.resolve("continuum"));
        SignIn signIn = signInWithPassword("scientist");
        store.save(new SignIn(signIn.issuer(), signIn.clientId(), signIn.username(), signIn.accessToken(),
                Instant.now().minusSeconds(5), signIn.refreshToken(), signIn.refreshExpiresAt()));
        new TokenClient(signIn.issuer()).revoke(BearerTokens.CLI, signIn.refreshToken().orElseThrow());

        try (FakeEngine engine = new FakeEngine().on("GET", "/flows", 200, FLOWS_PAGE)) {
            Cli.Result flows = run("flows", "--api", engine.api());
            assertThat(flows.exitCode()).isEqualTo(ExitCodes.SIGN_IN);
            assertThat(flows.err()).contains("expired or was revoked").contains("run `continuum login`");
            assertThat(engine.requests()).as("nothing is sent with a dead token").isEmpty();
        }
    }

    @Test
    void shouldTellThePersonToLoginWhenTheEngineRefusesTheCall() throws Exception {
        try (FakeEngine engine = new FakeEngine().on("GET", "/flows", 401, """
                {"type":"https://continuum.dev/problems/unauthorized","title":"Sign-in required","status":401,
                 "detail":"This API needs 'Authorization: Bearer <access token>'.","errors":[]}""")) {
            Cli.Result flows = run("flows", "--api", engine.api());
            assertThat(flows.exitCode()).isEqualTo(ExitCodes.SIGN_IN);
            assertThat(flows.err()).contains("Sign-in required").contains("run `continuum login`");
        }
    }

    @Test
    void shouldCallAsTheInstrumentServiceAccountWhenItsClientIsInTheEnvironment() throws Exception {
        env.put("CONTINUUM_CLIENT_ID", "continuum-instrument");
        env.put("CONTINUUM_CLIENT_SECRET", "continuum-instrument-local-secret");

        Cli.Result check = run("login", "--client-credentials");
        assertThat(check.exitCode()).as(check.err()).isZero();
        assertThat(check.out()).contains("signs in as service-account-continuum-instrument");
        assertThat(config.resolve("continuum/sign-in.json")).as("a service account's token is never stored").doesNotExist();

        try (FakeEngine engine = new FakeEngine().on("GET", "/flows", 200, FLOWS_PAGE)) {
            assertThat(run("flows", "--api", engine.api()).exitCode()).isZero();
            String sent = bearerOf(engine.only("GET", "/flows"));
            assertThat(JwtClaims.readUnverified(sent).username()).contains("service-account-continuum-instrument");
            assertThat(JwtClaims.readUnverified(sent).audience()).contains("continuum-engine");
        }
    }

    @Test
    void shouldSayWhichServiceAccountWasRefusedWhenItsSecretIsWrong() throws Exception {
        env.put("CONTINUUM_CLIENT_ID", "continuum-instrument");
        env.put("CONTINUUM_CLIENT_SECRET", "not-the-secret");
        try (FakeEngine engine = new FakeEngine().on("GET", "/flows", 200, FLOWS_PAGE)) {
            Cli.Result flows = run("flows", "--api", engine.api());
            assertThat(flows.exitCode()).isEqualTo(ExitCodes.SIGN_IN);
            assertThat(flows.err()).contains("refused the service account 'continuum-instrument'")
                    .contains("CONTINUUM_CLIENT_SECRET").doesNotContain("not-the-secret");
        }
    }

    private Cli.Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true), env);
        return new Cli.Result(code, out.toString(), err.toString());
    }

    private static SignIn signInWithPassword(String user) {
        String issuer = KeycloakServer.shared().issuer();
        return BearerTokens.from(issuer, "continuum-cli",
                new TokenClient(issuer).password(ClientCredentials.publicClient("continuum-cli"), user, user + "-local-only", "openid"),
                Instant.now());
    }

    private static String bearerOf(FakeEngine.Request request) {
        assertThat(request.authorization()).startsWith("Bearer ");
        return request.authorization().substring("Bearer ".length());
    }

    private static String awaitAddress(StringWriter out, StringWriter err, CompletableFuture<Integer> login) throws InterruptedException {
        Pattern address = Pattern.compile("^\\s+(http\\S+)$", Pattern.MULTILINE);
        try {
            return Awaitility.await("login prints an address to open").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        Matcher m = address.matcher(out.toString());
                        if (m.find()) {
                            return m.group(1);
                        }
                        if (login.isDone()) {
                            throw new AssertionError("login ended (" + login.join() + ") without an address:\n" + out + err);
                        }
                        return null;
                    }, java.util.Objects::nonNull);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("login printed no address to open:\n" + out + err, e);
        }
    }

    /** What a person does in the browser: open the address, sign in on Keycloak's page, and accept if asked. */
    private static void confirmInBrowser(String address, String user, String password) throws Exception {
        Browser browser = new Browser();
        HttpResponse<String> page = browser.open(address, null);
        page = browser.open(formAction(page.body(), "kc-form-login"),
                form(Map.of("username", user, "password", password, "credentialId", "")));
        // Keycloak asks the person to grant the device access ("Yes" / "No"); they click Yes.
        Matcher consent = Pattern.compile("action=\"([^\"]*/login-actions/consent[^\"]*)\"[\\s\\S]*?name=\"code\" value=\"([^\"]+)\"")
                .matcher(page.body());
        assertThat(consent.find()).as("Keycloak's grant-access page:\n" + page.body()).isTrue();
        page = browser.open(URI.create(address).resolve(consent.group(1).replace("&amp;", "&")).toString(),
                form(Map.of("code", consent.group(2), "accept", "Yes")));
        assertThat(page.statusCode()).as("Keycloak's answer after sign-in:\n" + page.body()).isEqualTo(200);
        assertThat(page.body()).as("Keycloak's answer after sign-in").doesNotContain("kc-error-message").doesNotContain("kc-form-login");
    }

    /**
     * Just enough of a browser: follows redirects and keeps every cookie. (The JDK's CookieManager withholds
     * the cookies Keycloak marks Secure on plain-http 127.0.0.1, which browsers send there.)
     */
    private static final class Browser {
        private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        private final Map<String, String> cookies = new java.util.LinkedHashMap<>();

        HttpResponse<String> open(String url, String formBody) throws Exception {
            URI target = URI.create(url);
            String body = formBody;
            for (int hops = 0; hops < 10; hops++) {
                HttpRequest.Builder request = HttpRequest.newBuilder(target);
                if (!cookies.isEmpty()) {
                    request.header("Cookie", String.join("; ", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
                }
                if (body != null) {
                    request.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body));
                }
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                for (String set : response.headers().allValues("Set-Cookie")) {
                    String pair = set.split(";", 2)[0];
                    int eq = pair.indexOf('=');
                    cookies.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
                }
                Optional<String> location = response.headers().firstValue("Location");
                if (response.statusCode() / 100 != 3 || location.isEmpty()) {
                    return response;
                }
                target = target.resolve(location.get());
                body = null;
            }
            throw new AssertionError("too many redirects from " + url);
        }
    }

    private static String formAction(String html, String formId) {
        return findFormAction(html, formId).orElseThrow(() -> new AssertionError("no form '" + formId + "' on the page:\n" + html));
    }

    private static Optional<String> findFormAction(String html, String formId) {
        Matcher m = Pattern.compile("<form[^>]*id=\"" + formId + "\"[^>]*>|<form[^>]*action=\"[^\"]*\"[^>]*id=\"" + formId + "\"[^>]*>")
                .matcher(html);
        if (!m.find()) {
            return Optional.empty();
        }
        Matcher action = Pattern.compile("action=\"([^\"]+)\"").matcher(m.group());
        return action.find() ? Optional.of(action.group(1).replace("&amp;", "&")) : Optional.empty();
    }

    private static String form(Map<String, String> fields) {
        StringBuilder body = new StringBuilder();
        fields.forEach((k, v) -> body.append(body.isEmpty() ? "" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return body.toString();
    }
}
