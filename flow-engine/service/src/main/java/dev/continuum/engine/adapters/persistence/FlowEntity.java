package dev.continuum.engine.adapters.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

import java.time.Instant;
import java.util.UUID;

@Entity
@Table(name = "flows")
public class FlowEntity {
    @Id
    public UUID id;
    @Column(name = "owner_id")
    public String ownerId;
    @Column(name = "current_version")
    public int currentVersion;
    public String title;
    public String subtitle;
    public String description;
    @ColumnTransformer(read = "cast(keywords as text)", write = "cast(cast(? as text) as jsonb)")
    public String keywords;
    @ColumnTransformer(read = "cast(roles as text)", write = "cast(cast(? as text) as jsonb)")
    public String roles;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "updated_at")
    public Instant updatedAt;
    public boolean deleted;
}
