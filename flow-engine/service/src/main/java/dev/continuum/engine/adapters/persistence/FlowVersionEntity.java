package dev.continuum.engine.adapters.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** One immutable version of a flow's definition. */
@Entity
@Table(name = "flow_versions")
@IdClass(FlowVersionEntity.Key.class)
public class FlowVersionEntity {
    @Id
    @Column(name = "flow_id")
    public UUID flowId;
    @Id
    public int version;
    @ColumnTransformer(read = "cast(definition as text)", write = "cast(cast(? as text) as jsonb)")
    public String definition;
    @ColumnTransformer(read = "cast(input_schema as text)", write = "cast(cast(? as text) as jsonb)")
    @Column(name = "input_schema")
    public String inputSchema;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "created_by")
    public String createdBy;
    // the flow's metadata as this version saved it (FlowEntity holds the current one)
    @Column(name = "owner_id")
    public String ownerId;
    public String title;
    public String subtitle;
    public String description;
    @ColumnTransformer(read = "cast(keywords as text)", write = "cast(cast(? as text) as jsonb)")
    public String keywords;
    @ColumnTransformer(read = "cast(roles as text)", write = "cast(cast(? as text) as jsonb)")
    public String roles;

    public static class Key implements Serializable {
        public UUID flowId;
        public int version;

        public Key() {}

        public Key(UUID flowId, int version) {
            this.flowId = flowId;
            this.version = version;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.version == version && Objects.equals(k.flowId, flowId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(flowId, version);
        }
    }
}
