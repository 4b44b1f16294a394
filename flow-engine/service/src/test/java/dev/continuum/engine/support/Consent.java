package dev.continuum.engine.support;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.continuum.engine.support.Tokens.as;

/**
 * A person giving the engine offline access as a browser would: POST /grants/consent, sign in on Keycloak's login
 * form, follow the redirect back to the engine's callback, which stores the grant. Answers the grant's id.
 */
public final class Consent {

    private static final Pattern FORM_ACTION = Pattern.compile("<form[^>]*id=\"kc-form-login\"[^>]*action=\"([^\"]+)\"");

    private Consent() {}

    public static String give(String user) {
        HttpResponse<String> stored = signIn(user, user);
        if (stored.statusCode() != 200) {
            throw new AssertionError("the engine's consent callback answered " + stored.statusCode() + ": " + stored.body());
        }
        return io.restassured.path.json.JsonPath.from(stored.body()).getString("id");
    }

    /** {@code starter} begins the consent, {@code user} signs in at Keycloak; answers the engine callback's answer. */
    public static HttpResponse<String> signIn(String starter, String user) {
        String start = as(Tokens.of(starter)).when().post("/grants/consent").then().statusCode(200).extract().path("authorization_url");
        return finish(start, user);
    }

    /** What a person does with a consent address: open it, sign in as {@code user}; answers the engine callback's answer. */
    public static HttpResponse<String> finish(String start, String user) {
        HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        try {
            HttpResponse<String> login = browser.send(HttpRequest.newBuilder(URI.create(start)).build(), HttpResponse.BodyHandlers.ofString());
            // Keycloak marks its login cookies Secure, which the JDK's cookie store then keeps from plain http: sent by hand
            String cookies = login.headers().allValues("Set-Cookie").stream().map(cookie -> cookie.split(";", 2)[0])
                    .collect(java.util.stream.Collectors.joining("; "));
            Matcher action = FORM_ACTION.matcher(login.body());
            if (!action.find()) {
                throw new AssertionError("no login form at " + start);
            }
            String form = "username=" + enc(user) + "&password=" + enc(user + "-local-only") + "&credentialId=";
            HttpResponse<String> signedIn = browser.send(HttpRequest.newBuilder(URI.create(action.group(1).replace("&amp;", "&")))
                    .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", cookies)
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
            String back = signedIn.headers().firstValue("Location").orElseThrow(() -> new AssertionError(
                    "Keycloak did not send the browser back after sign-in: HTTP " + signedIn.statusCode()));
            return browser.send(HttpRequest.newBuilder(URI.create(back)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("consent failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
