package dev.continuum.engine.adapters.persistence;

import dev.continuum.engine.app.PersonGrants;
import jakarta.enterprise.context.ApplicationScoped;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Offline grants in PostgreSQL (tables person_grants, run_person_grants); blocking JDBC as {@link JdbcSealedGrants}. */
@ApplicationScoped
public class JdbcPersonGrants implements PersonGrants {

    private static final String COLUMNS = "g.id, g.person, g.sealed, g.created_at, g.revoked_by, g.revoked_at";

    private final DataSource db;

    public JdbcPersonGrants(DataSource db) {
        this.db = db;
    }

    @Override
    public void save(UUID id, String person, byte[] sealed) {
        update("INSERT INTO person_grants (id, person, sealed) VALUES (?, ?, ?)", id, person, sealed);
    }

    @Override
    public void reseal(UUID id, byte[] sealed) {
        update("UPDATE person_grants SET sealed = ? WHERE id = ? AND revoked_by IS NULL", sealed, id);
    }

    @Override
    public Optional<Grant> current(String person) {
        return query("SELECT " + COLUMNS + " FROM person_grants g WHERE g.person = ? AND g.revoked_by IS NULL "
                + "ORDER BY g.created_at DESC LIMIT 1", person).stream().findFirst();
    }

    @Override
    public Optional<Grant> find(UUID id) {
        return query("SELECT " + COLUMNS + " FROM person_grants g WHERE g.id = ?", id).stream().findFirst();
    }

    @Override
    public boolean revoke(UUID id, String person, String by) {
        return update("UPDATE person_grants SET sealed = NULL, revoked_by = ?, revoked_at = now() "
                + "WHERE id = ? AND person = ? AND revoked_by IS NULL", by, id, person) == 1;
    }

    @Override
    public List<Listed> list(String person) {
        Map<UUID, Grant> grants = new LinkedHashMap<>();
        query("SELECT " + COLUMNS + " FROM person_grants g WHERE g.person = ? ORDER BY g.created_at DESC", person)
                .forEach(grant -> grants.put(grant.id(), grant));
        Map<UUID, List<UUID>> runs = new LinkedHashMap<>();
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement("SELECT r.grant_id, r.run_id "
                + "FROM run_person_grants r JOIN person_grants g ON g.id = r.grant_id WHERE g.person = ? ORDER BY r.run_id")) {
            q.setString(1, person);
            try (ResultSet found = q.executeQuery()) {
                while (found.next()) {
                    runs.computeIfAbsent(found.getObject(1, UUID.class), id -> new ArrayList<>()).add(found.getObject(2, UUID.class));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read grants: " + e.getMessage(), e);
        }
        return grants.values().stream().map(grant -> new Listed(grant, runs.getOrDefault(grant.id(), List.of()))).toList();
    }

    @Override
    public void link(UUID runId, UUID grantId) {
        update("INSERT INTO run_person_grants (run_id, grant_id) VALUES (?, ?) "
                + "ON CONFLICT (run_id) DO UPDATE SET grant_id = EXCLUDED.grant_id", runId, grantId);
    }

    @Override
    public Optional<Grant> linkedTo(UUID runId) {
        return query("SELECT " + COLUMNS + " FROM person_grants g JOIN run_person_grants r ON r.grant_id = g.id "
                + "WHERE r.run_id = ?", runId).stream().findFirst();
    }

    @Override
    public void unlink(UUID runId) {
        update("DELETE FROM run_person_grants WHERE run_id = ?", runId);
    }

    private List<Grant> query(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                q.setObject(i + 1, args[i]);
            }
            List<Grant> grants = new ArrayList<>();
            try (ResultSet found = q.executeQuery()) {
                while (found.next()) {
                    grants.add(new Grant(found.getObject(1, UUID.class), found.getString(2), Optional.ofNullable(found.getBytes(3)),
                            found.getTimestamp(4).toInstant(), Optional.ofNullable(found.getString(5)),
                            Optional.ofNullable(found.getTimestamp(6)).map(Timestamp::toInstant)));
                }
            }
            return grants;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read grants: " + e.getMessage(), e);
        }
    }

    private int update(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                q.setObject(i + 1, args[i]);
            }
            return q.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store a grant: " + e.getMessage(), e);
        }
    }
}
