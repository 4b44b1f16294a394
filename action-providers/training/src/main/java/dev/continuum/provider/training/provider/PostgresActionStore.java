package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.ActionStore;
import dev.continuum.provider.server.StoredAction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Training actions in PostgreSQL, one row each (the action as JSON plus the columns it is looked up
 * by), so a restarted provider finds its jobs with their details (attempt, backend handle,
 * checkpoints) and resumes them. Updates lock the row ({@code SELECT ... FOR UPDATE}), which makes
 * them atomic also with a second provider on the same database.
 */
public final class PostgresActionStore implements ActionStore {
    private static final ObjectMapper JSON = ProviderJson.mapper();

    record Persisted(@JsonProperty("status") ActionStatus status, @JsonProperty("request") ActionRequest request,
                     @JsonProperty("callback_url") String callbackUrl, @JsonProperty("log") List<ActionLogEntry> log,
                     @JsonProperty("release_at") Instant releaseAt) {}

    private final String url;
    private final String user;
    private final String password;

    public PostgresActionStore(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
        run(c -> {
            c.createStatement().execute("""
                    CREATE TABLE IF NOT EXISTS training_actions (
                      action_id TEXT PRIMARY KEY,
                      creator_id TEXT NOT NULL,
                      request_id TEXT NOT NULL,
                      finished BOOLEAN NOT NULL,
                      release_at TIMESTAMPTZ,
                      action JSONB NOT NULL,
                      UNIQUE (creator_id, request_id))""");
            return null;
        });
    }

    @Override
    public StoredAction insertIfAbsent(StoredAction action) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO training_actions (action_id, creator_id, request_id, finished, release_at, action)
                    VALUES (?, ?, ?, ?, ?, ?::jsonb) ON CONFLICT (creator_id, request_id) DO NOTHING""")) {
                bind(ps, action);
                if (ps.executeUpdate() == 1) {
                    return action;
                }
            }
            return findByRequest(c, action.creatorId(), action.request().requestId()).orElseThrow();
        });
    }

    @Override
    public Optional<StoredAction> find(String actionId) {
        return run(c -> one(c, "SELECT action FROM training_actions WHERE action_id = ?", actionId));
    }

    @Override
    public Optional<StoredAction> findByRequest(String creatorId, String requestId) {
        return run(c -> findByRequest(c, creatorId, requestId));
    }

    @Override
    public Optional<StoredAction> update(String actionId, UnaryOperator<StoredAction> change) {
        return run(c -> {
            c.setAutoCommit(false);
            try {
                Optional<StoredAction> current = one(c, "SELECT action FROM training_actions WHERE action_id = ? FOR UPDATE",
                        actionId);
                if (current.isEmpty()) {
                    c.rollback();
                    return current;
                }
                StoredAction next = change.apply(current.get());
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE training_actions SET finished = ?, release_at = ?, action = ?::jsonb WHERE action_id = ?")) {
                    ps.setBoolean(1, next.finished());
                    ps.setTimestamp(2, next.releaseAt() == null ? null : Timestamp.from(next.releaseAt()));
                    ps.setString(3, json(next));
                    ps.setString(4, actionId);
                    ps.executeUpdate();
                }
                c.commit();
                return Optional.of(next);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        });
    }

    @Override
    public Optional<StoredAction> remove(String actionId) {
        return run(c -> one(c, "DELETE FROM training_actions WHERE action_id = ? RETURNING action", actionId));
    }

    @Override
    public List<StoredAction> unfinished() {
        return run(c -> all(c, "SELECT action FROM training_actions WHERE NOT finished", null));
    }

    @Override
    public List<String> releasable(Instant now) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT action_id FROM training_actions WHERE finished AND release_at <= ?")) {
                ps.setTimestamp(1, Timestamp.from(now));
                List<String> ids = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
                return ids;
            }
        });
    }

    private Optional<StoredAction> findByRequest(Connection c, String creatorId, String requestId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT action FROM training_actions WHERE creator_id = ? AND request_id = ?")) {
            ps.setString(1, creatorId);
            ps.setString(2, requestId);
            List<StoredAction> found = read(ps);
            return found.stream().findFirst();
        }
    }

    private Optional<StoredAction> one(Connection c, String sql, String actionId) throws SQLException {
        return all(c, sql, actionId).stream().findFirst();
    }

    private List<StoredAction> all(Connection c, String sql, String actionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (actionId != null) {
                ps.setString(1, actionId);
            }
            return read(ps);
        }
    }

    private static List<StoredAction> read(PreparedStatement ps) throws SQLException {
        List<StoredAction> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                try {
                    Persisted p = JSON.readValue(rs.getString(1), Persisted.class);
                    out.add(new StoredAction(p.status(), p.request(), p.callbackUrl(), p.log(), p.releaseAt()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return out;
    }

    private static void bind(PreparedStatement ps, StoredAction a) throws SQLException {
        ps.setString(1, a.actionId());
        ps.setString(2, a.creatorId());
        ps.setString(3, a.request().requestId());
        ps.setBoolean(4, a.finished());
        ps.setTimestamp(5, a.releaseAt() == null ? null : Timestamp.from(a.releaseAt()));
        ps.setString(6, json(a));
    }

    private static String json(StoredAction a) {
        try {
            return JSON.writeValueAsString(new Persisted(a.status(), a.request(), a.callbackUrl(), a.log(), a.releaseAt()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface Work<T> {
        T on(Connection c) throws SQLException;
    }

    private <T> T run(Work<T> work) {
        // a connection per call: training actions change a few times a second at most
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            return work.on(c);
        } catch (SQLException e) {
            throw new IllegalStateException("training action store: " + e.getMessage(), e);
        }
    }
}
