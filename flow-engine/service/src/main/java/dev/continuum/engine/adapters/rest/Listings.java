package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.FlowQuery;
import dev.continuum.engine.app.RunQuery;
import dev.continuum.engine.app.Slice;
import dev.continuum.flow.run.RunStatus;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * GET /flows and GET /runs parameters as the Globus Flows API names them (plus the names this API had before,
 * kept working: flow_id, status, label, tag, offset), turned into the use cases' queries; and their answers, turned into pages.
 */
final class Listings {

    static final Set<String> RUN_PARAMS = Set.of("limit", "per_page", "offset", "orderby", "filter_roles", "filter_role",
            "filter_status", "filter_label", "filter_flow_id", "filter_flow_title", "filter_tags", "filter_run_owner",
            "filter_start_time", "filter_completion_time", "flow_id", "status", "label", "tag");

    static final Set<String> FLOW_PARAMS = Set.of("limit", "per_page", "offset", "orderby", "filter_roles", "filter_role",
            "filter_fulltext", "filter_title", "filter_subtitle", "filter_description", "filter_keywords");

    /** GET /flows/{id}/versions: always newest first, so paging is all there is to choose. */
    static final Set<String> VERSION_PARAMS = Set.of("limit", "per_page");

    private static final Map<String, RunQuery.Field> RUN_FIELDS = byName(RunQuery.Field.values());
    private static final Map<String, FlowQuery.Field> FLOW_FIELDS = byName(FlowQuery.Field.values());
    private static final Map<String, RunQuery.Role> RUN_ROLES = byName(RunQuery.Role.values());
    private static final Map<String, FlowQuery.Role> FLOW_ROLES = byName(FlowQuery.Role.values());
    private static final Map<String, String> STATUSES = Arrays.stream(RunStatus.values())
            .collect(Collectors.toMap(RunStatus::name, RunStatus::name, (a, b) -> a, LinkedHashMap::new));

    /** Globus' older filter_role: one role, and every stronger one with it. */
    private static final Map<String, Set<RunQuery.Role>> RUN_ROLE_AND_STRONGER = Map.of(
            "run_owner", EnumSet.of(RunQuery.Role.RUN_OWNER),
            "run_manager", EnumSet.of(RunQuery.Role.RUN_OWNER, RunQuery.Role.RUN_MANAGERS, RunQuery.Role.FLOW_RUN_MANAGERS),
            "run_monitor", EnumSet.allOf(RunQuery.Role.class));

    private static final Map<String, Set<FlowQuery.Role>> FLOW_ROLE_AND_STRONGER = Map.of(
            "flow_owner", EnumSet.of(FlowQuery.Role.FLOW_OWNER),
            "flow_administrator", EnumSet.of(FlowQuery.Role.FLOW_OWNER, FlowQuery.Role.FLOW_ADMINISTRATORS),
            "flow_starter", EnumSet.of(FlowQuery.Role.FLOW_OWNER, FlowQuery.Role.FLOW_ADMINISTRATORS, FlowQuery.Role.FLOW_STARTERS),
            "flow_viewer", EnumSet.of(FlowQuery.Role.FLOW_OWNER, FlowQuery.Role.FLOW_ADMINISTRATORS, FlowQuery.Role.FLOW_STARTERS,
                    FlowQuery.Role.FLOW_VIEWERS),
            "run_manager", EnumSet.of(FlowQuery.Role.RUN_MANAGERS),
            "run_monitor", EnumSet.of(FlowQuery.Role.RUN_MONITORS));

    private Listings() {}

    static RunQuery runs(ListParams params) {
        Set<RunQuery.Role> roles = EnumSet.noneOf(RunQuery.Role.class);
        roles.addAll(ListParams.named("filter_roles", params.split("filter_roles"), RUN_ROLES));
        params.one("filter_role").ifPresent(role -> roles.addAll(ListParams.named("filter_role", List.of(role), RUN_ROLE_AND_STRONGER).get(0)));
        List<UUID> flowIds = params.split("filter_flow_id", "flow_id").stream().map(id -> Ids.parse(id, "filter_flow_id")).toList();
        RunQuery.Filter filter = new RunQuery.Filter(flowIds,
                concat(ListParams.named("filter_status", params.split("filter_status"), STATUSES),
                        ListParams.named("status", params.split("status"), STATUSES)),
                params.all("filter_label"), params.one("label"), params.all("filter_tags", "tag"),
                params.all("filter_flow_title"), params.all("filter_run_owner"), params.range("filter_start_time"),
                params.range("filter_completion_time"), roles);
        return new RunQuery(filter, params.order(RUN_FIELDS, RunQuery.NEWEST_FIRST), params.after(), params.limit(), offset(params));
    }

    static FlowQuery flows(ListParams params) {
        Set<FlowQuery.Role> roles = EnumSet.noneOf(FlowQuery.Role.class);
        roles.addAll(ListParams.named("filter_roles", params.split("filter_roles"), FLOW_ROLES));
        params.one("filter_role").ifPresent(role -> roles.addAll(ListParams.named("filter_role", List.of(role), FLOW_ROLE_AND_STRONGER).get(0)));
        FlowQuery.Filter filter = new FlowQuery.Filter(params.all("filter_fulltext"), params.all("filter_title"),
                params.all("filter_subtitle"), params.all("filter_description"), params.all("filter_keywords"), roles);
        return new FlowQuery(filter, params.order(FLOW_FIELDS, FlowQuery.NEWEST_FIRST), params.after(), params.limit(), offset(params));
    }

    /** A page's JSON shape: Globus names its list after what it holds (flows, runs), the paging fields are the same. */
    @FunctionalInterface
    interface PageShape<V, P> {
        P of(List<V> items, int limit, boolean hasNextPage, String marker);
    }

    /** The store's slice as the page a client sees: each item as {@code view} shows it, and the marker of the next page. */
    static <T, V, P> P page(Slice<T> slice, Function<T, V> view, int limit, ListParams params, PageShape<V, P> shape) {
        return shape.of(slice.items().stream().map(view).toList(), limit, slice.hasNextPage(), params.next(slice.after()));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    /** The older offset skips rows of the first page only; later pages continue after their marker. */
    private static int offset(ListParams params) {
        int offset = params.integer("offset", 0, 0, Integer.MAX_VALUE);
        return params.after().isEmpty() ? offset : 0;
    }

    /** Enum constants by their Globus name (FLOW_RUN_MANAGERS is flow_run_managers). */
    private static <E extends Enum<E>> Map<String, E> byName(E[] values) {
        return Arrays.stream(values).collect(Collectors.toMap(v -> v.name().toLowerCase(java.util.Locale.ROOT),
                Function.identity(), (a, b) -> a, LinkedHashMap::new));
    }
}
