package dev.continuum.engine.adapters.persistence;

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
        return pool.preparedQuery("SELECT secret_id, sealed FROM trigger_secrets WHERE trigger_id = $1 "
                        + "ORDER BY created_at DESC, secret_id LIMIT $2")
                .execute(Tuple.of(triggerId, ACTIVE))
                .map(rows -> {
                    List<String> open = new ArrayList<>();
                    rows.forEach(row -> {
                        try {
                            open.add(vault.vault().open(row.getBuffer(1).getBytes(), context(triggerId, row.getUUID(0).toString())));
                        } catch (dev.continuum.auth.vault.TokenVault.VaultException e) {
                            // sealed under another vault key (a restart without continuum.auth.vault-key): rotate to recover
                        }
                    });
                    return open;
                });
    }

    private static String context(UUID triggerId, String secretId) {
        return "trigger:" + triggerId + "/webhook-secret:" + secretId;
    }
}
