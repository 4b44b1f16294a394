package dev.continuum.placement.service.adapters.persistence;

import dev.continuum.placement.core.planner.trace.TraceCodec;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.Restored;
import dev.continuum.placement.service.app.DecisionQuery;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.PlacementLog;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The decision log in PostgreSQL over JDBC: requests and decisions as the trace's JSON, a few columns to filter on. */
@ApplicationScoped
public class JdbcPlacementLog implements PlacementLog {

    private static final String SELECT = "SELECT d.seq, d.request_id, r.run_id, r.kind, d.at, d.cause, d.decision::text"
            + " FROM placement_decisions d JOIN placement_requests r ON r.id = d.request_id";

    private final AgroalDataSource db;

    public JdbcPlacementLog(AgroalDataSource db) {
        this.db = db;
    }

    @Override
    public boolean addRequest(PlacementRequest request, String runId, String owner, Instant at) {
        return add(request, runId, owner, at, false);
    }

    @Override
    public boolean addReportedRequest(PlacementRequest request, String runId, Instant at) {
        return add(request, runId, null, at, true);
    }

    private boolean add(PlacementRequest request, String runId, String owner, Instant at, boolean reported) {
        return update("INSERT INTO placement_requests (id, run_id, kind, created_at, request, owner, reported)"
                + " VALUES (?, ?, ?, ?, ?::jsonb, ?, ?) ON CONFLICT (id) DO NOTHING", ps -> {
            ps.setString(1, request.id());
            ps.setString(2, runId == null ? "" : runId);
            ps.setString(3, request.kind().name().toLowerCase());
            ps.setTimestamp(4, Timestamp.from(at));
            ps.setString(5, TraceCodec.writeRequest(request));
            ps.setString(6, owner);
            ps.setBoolean(7, reported);
        }) == 1;
    }

    @Override
    public Optional<StoredRequest> request(String requestId) {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT request::text, run_id, created_at, owner, reported FROM placement_requests WHERE id = ?")) {
            ps.setString(1, requestId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new StoredRequest(TraceCodec.readRequest(rs.getString(1)),
                        rs.getString(2), rs.getTimestamp(3).toInstant(), rs.getString(4), rs.getBoolean(5))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read placement request " + requestId, e);
        }
    }

    @Override
    public List<DecisionRecord> append(List<DecisionRecord> decisions) {
        List<DecisionRecord> out = new ArrayList<>();
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO placement_decisions (request_id, at, cause, status, site, decision)"
                     + " VALUES (?, ?, ?, ?, ?, ?::jsonb) RETURNING seq, (SELECT run_id FROM placement_requests WHERE id = ?),"
                     + " (SELECT kind FROM placement_requests WHERE id = ?)")) {
            for (DecisionRecord d : decisions) {
                ps.setString(1, d.requestId());
                ps.setTimestamp(2, Timestamp.from(d.at()));
                ps.setString(3, d.cause().name().toLowerCase());
                ps.setString(4, d.status());
                ps.setString(5, d.site());
                ps.setString(6, TraceCodec.writeDecision(d.decision()));
                ps.setString(7, d.requestId());
                ps.setString(8, d.requestId());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    out.add(new DecisionRecord(rs.getLong(1), d.requestId(), rs.getString(2), rs.getString(3), d.at(),
                            d.cause(), d.decision()));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot write placement decisions", e);
        }
    }

    @Override
    public void markFinished(String requestId, Instant at) {
        update("UPDATE placement_requests SET finished_at = ? WHERE id = ? AND finished_at IS NULL", ps -> {
            ps.setTimestamp(1, Timestamp.from(at));
            ps.setString(2, requestId);
        });
    }

    @Override
    public List<Restored> unfinished() {
        String sql = "SELECT r.request::text, r.created_at, d.decision::text FROM placement_requests r"
                + " JOIN LATERAL (SELECT decision, status FROM placement_decisions WHERE request_id = r.id"
                + " ORDER BY seq DESC LIMIT 1) d ON true"
                + " WHERE r.finished_at IS NULL AND NOT r.reported AND d.status IN ('placed', 'moved', 'queued', 'preempted')"
                + " ORDER BY r.created_at, r.id";
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            List<Restored> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new Restored(TraceCodec.readRequest(rs.getString(1)), rs.getTimestamp(2).getTime(),
                        TraceCodec.readDecision(rs.getString(3))));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the unfinished jobs from the placement log", e);
        }
    }

    @Override
    public List<DecisionRecord> decisionsOf(String requestId) {
        return query(SELECT + " WHERE d.request_id = ? ORDER BY d.seq", List.of(requestId), 10_000);
    }

    @Override
    public List<DecisionRecord> list(DecisionQuery q) {
        StringBuilder sql = new StringBuilder(SELECT).append(" WHERE d.seq > ?");
        List<Object> args = new ArrayList<>();
        args.add(q.afterSeq());
        if (q.subject() != null) {
            sql.append(" AND (d.request_id = ? OR r.run_id = ?)");
            args.add(q.subject());
            args.add(q.subject());
        }
        filter(sql, args, " AND r.kind = ?", q.kind());
        filter(sql, args, " AND d.site = ?", q.site());
        filter(sql, args, " AND d.status = ?", q.status());
        filter(sql, args, " AND d.at >= ?", q.from() == null ? null : Timestamp.from(q.from()));
        filter(sql, args, " AND d.at < ?", q.to() == null ? null : Timestamp.from(q.to()));
        sql.append(" ORDER BY d.seq LIMIT ").append(q.limit());
        return query(sql.toString(), args, q.limit());
    }

    private static void filter(StringBuilder sql, List<Object> args, String clause, Object value) {
        if (value != null) {
            sql.append(clause);
            args.add(value);
        }
    }

    private List<DecisionRecord> query(String sql, List<?> args, int limit) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            List<DecisionRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && out.size() < limit) {
                    out.add(new DecisionRecord(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getTimestamp(5).toInstant(), DecisionRecord.Cause.valueOf(rs.getString(6).toUpperCase()),
                            TraceCodec.readDecision(rs.getString(7))));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the placement log", e);
        }
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private int update(String sql, Binder binder) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot write the placement log", e);
        }
    }
}
