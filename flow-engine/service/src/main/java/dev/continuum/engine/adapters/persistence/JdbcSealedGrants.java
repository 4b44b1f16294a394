package dev.continuum.engine.adapters.persistence;

import dev.continuum.engine.app.SealedGrants;
import jakarta.enterprise.context.ApplicationScoped;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * Sealed refresh tokens in PostgreSQL (table run_grants). JDBC rather than the reactive pool because
 * token renewal is already blocking work on a worker thread, and it is rare (once per token lifetime).
 */
@ApplicationScoped
public class JdbcSealedGrants implements SealedGrants {

    private final DataSource db;

    public JdbcSealedGrants(DataSource db) {
        this.db = db;
    }

    @Override
    public void save(UUID runId, String principal, String audience, byte[] sealed) {
        update("""
                INSERT INTO run_grants (run_id, principal, audience, sealed, updated_at) VALUES (?, ?, ?, ?, now())
                ON CONFLICT (run_id, principal, audience) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = now()""",
                runId, principal, audience, sealed);
    }

    @Override
    public Optional<byte[]> find(UUID runId, String principal, String audience) {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(
                "SELECT sealed FROM run_grants WHERE run_id = ? AND principal = ? AND audience = ?")) {
            q.setObject(1, runId);
            q.setString(2, principal);
            q.setString(3, audience);
            try (ResultSet found = q.executeQuery()) {
                return found.next() ? Optional.of(found.getBytes(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read a run grant: " + e.getMessage(), e);
        }
    }

    @Override
    public void forget(UUID runId) {
        update("DELETE FROM run_grants WHERE run_id = ?", runId);
    }

    private void update(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                q.setObject(i + 1, args[i]);
            }
            q.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store a run grant: " + e.getMessage(), e);
        }
    }
}
