package dev.continuum.engine.app;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Which runs to list, in what order, from where. Every list filter matches any of its values; an empty list
 * does not filter. {@code labels} and {@code flowTitles} match case-insensitive substrings (Globus'
 * filter_label, filter_flow_title); {@code exactLabel} is the older {@code label} parameter.
 */
public record RunQuery(Filter filter, List<Order<Field>> order, List<String> after, int limit, int offset) {

    /** Globus' orderby fields for runs. */
    public enum Field { ID, START_TIME, COMPLETION_TIME, STATUS, LABEL }

    /** Globus' run roles (filter_roles): the run's own lists and the ones it gets from its flow. */
    public enum Role { RUN_OWNER, RUN_MANAGERS, RUN_MONITORS, FLOW_RUN_MANAGERS, FLOW_RUN_MONITORS }

    public record Filter(List<UUID> flowIds, List<String> statuses, List<String> labels, Optional<String> exactLabel,
                         List<String> tags, List<String> flowTitles, List<String> owners, TimeRange started,
                         TimeRange completed, Set<Role> roles) {
        public static final Filter NONE = new Filter(List.of(), List.of(), List.of(), Optional.empty(), List.of(),
                List.of(), List.of(), TimeRange.ANY, TimeRange.ANY, Set.of());
    }

    public RunQuery {
        order = List.copyOf(order);
        after = List.copyOf(after);
    }

    public static final List<Order<Field>> NEWEST_FIRST = List.of(new Order<>(Field.START_TIME, true));
}
