package dev.continuum.engine.app;

import java.util.List;
import java.util.Set;

/**
 * Which flows to list, in what order, from where. Text filters match case-insensitive substrings, any of
 * their values (Globus' filter_fulltext, filter_title, ...); an empty list does not filter.
 */
public record FlowQuery(Filter filter, List<Order<Field>> order, List<String> after, int limit, int offset) {

    /** Globus' orderby fields for flows that Continuum has. */
    public enum Field { ID, TITLE, CREATED_AT, UPDATED_AT, FLOW_OWNER }

    /** Globus' flow roles (filter_roles). */
    public enum Role { FLOW_OWNER, FLOW_ADMINISTRATORS, FLOW_STARTERS, FLOW_VIEWERS, RUN_MANAGERS, RUN_MONITORS }

    /** {@code fulltext} searches title, subtitle, description, owner, id and administrators, as Globus does. */
    public record Filter(List<String> fulltext, List<String> titles, List<String> subtitles, List<String> descriptions,
                         List<String> keywords, Set<Role> roles) {
        public static final Filter NONE = new Filter(List.of(), List.of(), List.of(), List.of(), List.of(), Set.of());
    }

    public FlowQuery {
        order = List.copyOf(order);
        after = List.copyOf(after);
    }

    public static final List<Order<Field>> NEWEST_FIRST = List.of(new Order<>(Field.CREATED_AT, true));
}
