package dev.continuum.engine.adapters.persistence;

import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.adapters.auth.EngineVault;
import dev.continuum.engine.app.triggers.WebhookSecrets;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Webhook secrets sealed in trigger_secrets; opened only to check a signature. */
@ApplicationScoped
public class PgWebhookSecrets implements WebhookSecrets {

    private final Pool pool;
    private final EngineVault vault;

    public PgWebhookSecrets(Pool pool, EngineVault vault) {
        this.pool = pool;
        this.vault = vault;
    }

    @Override
    public Uni<Void> add(UUID triggerId, String secretId, String secret, Instant createdAt) {
        byte[] sealed = vault.vault().seal(secret, context(triggerId, secretId));
        return pool.withTransaction(tx -> tx.preparedQuery(
                        "INSERT INTO trigger_secrets (trigger_id, secret_id, sealed, created_at) VALUES ($1, $2, $3, $4)")
                .execute(Tuple.of(triggerId, UUID.fromString(secretId), io.vertx.core.buffer.Buffer.buffer(sealed),
                        PgRunStore.odt(createdAt)))
                .flatMap(added -> tx.preparedQuery("""
                                DELETE FROM trigger_secrets WHERE trigger_id = $1 AND secret_id NOT IN (
                                    SELECT secret_id FROM trigger_secrets WHERE trigger_id = $1
                                    ORDER BY created_at DESC, secret_id LIMIT $2)""")
                        .execute(Tuple.of(triggerId, ACTIVE))))
                .replaceWithVoid();
    }

    @Override
    public Uni<List<String>> active(UUID triggerId) {
        TokenVault keys = vault.vault();
        return pool.preparedQuery("SELECT secret_id, sealed FROM trigger_secrets WHERE trigger_id = $1 "
                        + "ORDER BY created_at DESC, secret_id LIMIT $2")
                .execute(Tuple.of(triggerId, ACTIVE))
                .flatMap(rows -> {
                    List<String> open = new ArrayList<>();
                    List<Tuple> sealAgain = new ArrayList<>();
                    rows.forEach(row -> {
                        String secretId = row.getUUID(0).toString();
                        byte[] sealed = row.getBuffer(1).getBytes();
                        try {
                            String secret = keys.open(sealed, context(triggerId, secretId));
                            open.add(secret);
                            if (keys.shouldSealAgain(sealed)) {
                                // sealed before a vault key rotation: sealed anew, so the previous key can be retired
                                sealAgain.add(Tuple.of(triggerId, row.getUUID(0), io.vertx.core.buffer.Buffer.buffer(
                                        keys.seal(secret, context(triggerId, secretId)))));
                            }
                        } catch (TokenVault.VaultException e) {
                            // sealed under another vault key (a restart without continuum.auth.vault-key): rotate to recover
                        }
                    });
                    if (sealAgain.isEmpty()) {
                        return Uni.createFrom().item(open);
                    }
                    return pool.preparedQuery("UPDATE trigger_secrets SET sealed = $3 WHERE trigger_id = $1 AND secret_id = $2")
                            .executeBatch(sealAgain).replaceWith(open);
                });
    }

    private static String context(UUID triggerId, String secretId) {
        return "trigger:" + triggerId + "/webhook-secret:" + secretId;
    }
}
