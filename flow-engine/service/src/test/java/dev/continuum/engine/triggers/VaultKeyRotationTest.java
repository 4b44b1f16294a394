package dev.continuum.engine.triggers;

import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.engine.support.TestClock;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

/**
 * docs/operations.md "Rotating the vault key": the engine runs with a new {@code continuum.auth.vault-key} and the
 * old one in {@code continuum.auth.vault-previous-keys}. A webhook secret sealed with the old key still verifies a
 * delivery, and is sealed anew with the new key on that read, so the old key can then be dropped.
 */
@QuarkusTest
@TestProfile(VaultKeyRotationTest.Rotated.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class VaultKeyRotationTest {

    /** Test-only keys (statics are not shared with the profile's class loader, so they are constants). */
    static final String OLD_KEY = "O5okGdIUR3PycuSwL/wQtyY2GtQK7+yOt1gSCbYAoKI=";
    static final String NEW_KEY = "HXq811uuRLHvJcxFJtBzyjtm62L8dohZlBaBc7iYgaU=";

    public static class Rotated implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("continuum.auth.vault-key", NEW_KEY, "continuum.auth.vault-previous-keys", OLD_KEY);
        }
    }

    @Inject
    Pool db;

    @Inject
    TestClock clock;

    @Test
    void shouldVerifyADeliveryWithASecretSealedBeforeTheRotationAndSealItWithTheNewKey() {
        var created = given().contentType("application/json").body("""
                        {"title":"rotation","source":{"type":"webhook"},"flow_id":"%s"}""".formatted(Flows.publish(Triggers.KEEP_INPUT)))
                .when().post("/triggers").then().statusCode(201).extract();
        String triggerId = created.path("id");
        String secret = created.path("webhook.secret");
        Row row = db.preparedQuery("SELECT secret_id FROM trigger_secrets WHERE trigger_id = $1")
                .execute(Tuple.of(UUID.fromString(triggerId))).await().indefinitely().iterator().next();
        String context = "trigger:" + triggerId + "/webhook-secret:" + row.getUUID(0);
        // as the engine sealed it before the rotation, under the key that is now the previous one
        db.preparedQuery("UPDATE trigger_secrets SET sealed = $2 WHERE trigger_id = $1").execute(Tuple.of(
                UUID.fromString(triggerId), io.vertx.core.buffer.Buffer.buffer(TokenVault.fromBase64Key(OLD_KEY).seal(secret, context))))
                .await().indefinitely();

        WebhookTriggerTest.post(triggerId, secret, "rotation-1", clock.instant().getEpochSecond(), "{\"n\":1}")
                .statusCode(202).body("outcome", equalTo("started"));

        byte[] sealedNow = db.preparedQuery("SELECT sealed FROM trigger_secrets WHERE trigger_id = $1")
                .execute(Tuple.of(UUID.fromString(triggerId))).await().indefinitely().iterator().next().getBuffer(0).getBytes();
        assertThat(TokenVault.fromBase64Key(NEW_KEY).open(sealedNow, context)).as("sealed anew with the new key alone")
                .isEqualTo(secret);
        assertThatThrownBy(() -> TokenVault.fromBase64Key(OLD_KEY).open(sealedNow, context))
                .isInstanceOf(TokenVault.VaultException.class);
    }
}
