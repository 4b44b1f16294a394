package dev.continuum.provider.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A provider's actions in PostgreSQL, one row each (the action as JSON plus the columns it is looked
 * up by), shared by every instance of the provider that points at the same table (ADR 0027). Changes
 * lock the row ({@code SELECT ... FOR UPDATE}), so two instances never overwrite each other; an
 * unfinished action carries its owner and lease ({@link SharedActionStore}), and lease times come from
 * the database's clock, so instances on machines whose clocks differ agree on when a lease ran out.
 * Connections come from a small HikariCP pool.
 */
public final class PostgresActionStore implements SharedActionStore, AutoCloseable {

    private static final Pattern TABLE = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);

    private final HikariDataSource pool;
    private final boolean ownsPool;
    private final String table;
    private final String instanceId;
    private final Duration lease;

    /**
     * Opens the pool and creates {@code table} when missing (adding the lease columns to a table made
     * before they existed).
     */
    public PostgresActionStore(String url, String user, String password, String table, String instanceId, Duration lease) {
        this(url, user, password, table, instanceId, lease, 4);
    }

    /** As above, with a pool of up to {@code poolSize} connections (shared by every store made {@link #beside} it). */
    public PostgresActionStore(String url, String user, String password, String table, String instanceId, Duration lease,
                               int poolSize) {
        this(pool(url, user, password, table, poolSize), true, table, instanceId, lease);
    }

    private PostgresActionStore(HikariDataSource pool, boolean ownsPool, String table, String instanceId, Duration lease) {
        if (!TABLE.matcher(Objects.requireNonNull(table, "table")).matches()) {
            pool.close();
            throw new IllegalArgumentException("table must be a lower-case SQL identifier, not " + table);
        }
        this.pool = pool;
        this.ownsPool = ownsPool;
        this.table = table;
        this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
        this.lease = Objects.requireNonNull(lease, "lease");
        createTable();
    }

    /**
     * Another provider's store in {@code table} of the same database, with this one's instance id and lease, on this
     * one's connections (a process hosting several providers keeps one pool). Closing it leaves the pool open; closing
     * this store closes the pool.
     */
    public PostgresActionStore beside(String table) {
        return new PostgresActionStore(pool, false, table, instanceId, lease);
    }

    private static HikariDataSource pool(String url, String user, String password, String name, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(1);
        config.setPoolName(name);
        return new HikariDataSource(config);
    }

    private void createTable() {
        run(c -> {
            // Instances starting together on a fresh database would race on CREATE TABLE IF NOT EXISTS (one of them
            // fails on a unique violation in the catalog): a transaction-scoped advisory lock per table orders them.
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
                lock.setString(1, "continuum action store " + table);
                lock.execute();
            }
            c.createStatement().execute(("""
                    CREATE TABLE IF NOT EXISTS %1$s (
                      action_id TEXT PRIMARY KEY,
                      creator_id TEXT NOT NULL,
                      request_id TEXT NOT NULL,
                      finished BOOLEAN NOT NULL,
                      release_at TIMESTAMPTZ,
                      action JSONB NOT NULL,
                      owner TEXT,
                      lease_until TIMESTAMPTZ,
                      UNIQUE (creator_id, request_id));
                    ALTER TABLE %1$s ADD COLUMN IF NOT EXISTS owner TEXT, ADD COLUMN IF NOT EXISTS lease_until TIMESTAMPTZ""")
                    .formatted(table));
            c.commit();
            c.setAutoCommit(true);
            return null;
        });
    }

    /**
     * The store named by {@code <PREFIX>_DB_URL} (a JDBC URL) with {@code <PREFIX>_DB_USER} (default
     * {@code postgres}) and {@code <PREFIX>_DB_PASSWORD}, the lease by {@code <PREFIX>_LEASE_SECONDS}
     * (default 15) and this instance's name by {@code <PREFIX>_INSTANCE_ID} (default {@code defaultInstanceId});
     * empty when no URL is set.
     */
    public static Optional<PostgresActionStore> fromEnvironment(Map<String, String> env, String prefix, String table,
                                                                String defaultInstanceId) {
        String url = env.get(prefix + "_DB_URL");
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        Duration lease = env.containsKey(prefix + "_LEASE_SECONDS")
                ? Duration.ofSeconds(Long.parseLong(env.get(prefix + "_LEASE_SECONDS"))) : DEFAULT_LEASE;
        return Optional.of(new PostgresActionStore(url, env.getOrDefault(prefix + "_DB_USER", "postgres"),
                env.getOrDefault(prefix + "_DB_PASSWORD", ""), table,
                env.getOrDefault(prefix + "_INSTANCE_ID", defaultInstanceId), lease));
    }

    /** {@code host:port}: stable across restarts of one instance, distinct between instances on one host. */
    public static String hostInstanceId(int port) {
        try {
            return InetAddress.getLocalHost().getHostName() + ":" + port;
        } catch (UnknownHostException e) {
            return "localhost:" + port;
        }
    }

    @Override
    public String instanceId() {
        return instanceId;
    }

    @Override
    public Duration lease() {
        return lease;
    }

    @Override
    public StoredAction insertIfAbsent(StoredAction action) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement(("""
                    INSERT INTO %s (action_id, creator_id, request_id, finished, release_at, action, owner, lease_until)
                    VALUES (?, ?, ?, ?, ?, ?::jsonb, ?, now() + make_interval(secs => ?))
                    ON CONFLICT (creator_id, request_id) DO NOTHING""").formatted(table))) {
                ps.setString(1, action.actionId());
                ps.setString(2, action.creatorId());
                ps.setString(3, action.request().requestId());
                ps.setBoolean(4, action.finished());
                ps.setTimestamp(5, timestamp(action.releaseAt()));
                ps.setString(6, json(action));
                ps.setString(7, instanceId);
                ps.setDouble(8, lease.toMillis() / 1000.0);
                if (ps.executeUpdate() == 1) {
                    return action;
                }
            }
            return findByRequest(c, action.creatorId(), action.request().requestId()).orElseThrow();
        });
    }

    @Override
    public Optional<StoredAction> find(String actionId) {
        return run(c -> first(all(c, "SELECT action FROM %s WHERE action_id = ?", actionId)));
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
                Optional<StoredAction> current = first(all(c, "SELECT action FROM %s WHERE action_id = ? FOR UPDATE", actionId));
                if (current.isEmpty()) {
                    c.rollback();
                    return current;
                }
                StoredAction next = change.apply(current.get());
                if (next != current.get()) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "UPDATE %s SET finished = ?, release_at = ?, action = ?::jsonb WHERE action_id = ?".formatted(table))) {
                        ps.setBoolean(1, next.finished());
                        ps.setTimestamp(2, timestamp(next.releaseAt()));
                        ps.setString(3, json(next));
                        ps.setString(4, actionId);
                        ps.executeUpdate();
                    }
                }
                c.commit();
                return Optional.of(next);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    @Override
    public Optional<StoredAction> remove(String actionId) {
        return run(c -> first(all(c, "DELETE FROM %s WHERE action_id = ? RETURNING action", actionId)));
    }

    @Override
    public List<StoredAction> unfinished() {
        return run(c -> all(c, "SELECT action FROM %s WHERE NOT finished", null));
    }

    @Override
    public List<String> releasable(Instant now) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT action_id FROM %s WHERE finished AND release_at <= ?".formatted(table))) {
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

    @Override
    public List<StoredAction> adopt(boolean includeOwn) {
        // SKIP LOCKED: two instances adopting at once split the orphans instead of both taking each
        String sql = ("""
                UPDATE %1$s SET owner = ?, lease_until = now() + make_interval(secs => ?)
                WHERE action_id IN (SELECT action_id FROM %1$s WHERE NOT finished
                                      AND (lease_until IS NULL OR lease_until < now()%2$s)
                                    FOR UPDATE SKIP LOCKED)
                RETURNING action""").formatted(table, includeOwn ? " OR owner = ?" : "");
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, instanceId);
                ps.setDouble(2, lease.toMillis() / 1000.0);
                if (includeOwn) {
                    ps.setString(3, instanceId);
                }
                return read(ps);
            }
        });
    }

    @Override
    public Set<String> renew() {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement(("UPDATE %s SET lease_until = now() + make_interval(secs => ?)"
                    + " WHERE owner = ? AND NOT finished RETURNING action_id").formatted(table))) {
                ps.setDouble(1, lease.toMillis() / 1000.0);
                ps.setString(2, instanceId);
                Set<String> held = new LinkedHashSet<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        held.add(rs.getString(1));
                    }
                }
                return held;
            }
        });
    }

    @Override
    public void close() {
        if (ownsPool) {
            pool.close();
        }
    }

    private Optional<StoredAction> findByRequest(Connection c, String creatorId, String requestId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT action FROM %s WHERE creator_id = ? AND request_id = ?".formatted(table))) {
            ps.setString(1, creatorId);
            ps.setString(2, requestId);
            return first(read(ps));
        }
    }

    private List<StoredAction> all(Connection c, String sql, String actionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.formatted(table))) {
            if (actionId != null) {
                ps.setString(1, actionId);
            }
            return read(ps);
        }
    }

    private static Optional<StoredAction> first(List<StoredAction> found) {
        return found.stream().findFirst();
    }

    private static List<StoredAction> read(PreparedStatement ps) throws SQLException {
        List<StoredAction> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(StoredActionJson.read(rs.getBytes(1)));
            }
        }
        return out;
    }

    private static Timestamp timestamp(Instant at) {
        return at == null ? null : Timestamp.from(at);
    }

    private static String json(StoredAction a) {
        return new String(StoredActionJson.write(a), StandardCharsets.UTF_8);
    }

    private interface Work<T> {
        T on(Connection c) throws SQLException;
    }

    private <T> T run(Work<T> work) {
        try (Connection c = pool.getConnection()) {
            return work.on(c);
        } catch (SQLException e) {
            throw new IllegalStateException("action store " + table + ": " + e.getMessage(), e);
        }
    }
}
