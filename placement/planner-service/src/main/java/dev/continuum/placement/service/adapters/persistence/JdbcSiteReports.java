package dev.continuum.placement.service.adapters.persistence;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What backends last reported about their sites, as they sent it (JSON), so a restarted planner has its training
 * partitions back at once instead of waiting for each backend to report again.
 */
@ApplicationScoped
public class JdbcSiteReports {

    private final AgroalDataSource db;

    public JdbcSiteReports(AgroalDataSource db) {
        this.db = db;
    }

    public void save(String site, String json, Instant at) {
        run("INSERT INTO planner_reported_sites (site, report, updated_at) VALUES (?, ?::jsonb, ?)"
                + " ON CONFLICT (site) DO UPDATE SET report = EXCLUDED.report, updated_at = EXCLUDED.updated_at",
                site, json, Timestamp.from(at));
    }

    public void delete(String site) {
        run("DELETE FROM planner_reported_sites WHERE site = ?", site);
    }

    /** Every kept report by site, in site order. */
    public Map<String, String> all() {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT site, report::text FROM planner_reported_sites ORDER BY site");
             ResultSet rs = ps.executeQuery()) {
            Map<String, String> out = new LinkedHashMap<>();
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the reported sites", e);
        }
    }

    private void run(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot keep the reported site", e);
        }
    }
}
