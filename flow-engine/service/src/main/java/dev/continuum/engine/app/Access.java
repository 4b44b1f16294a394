package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.run.RunStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * Who may do what with a flow or a run (Globus Flows roles). Each role lists principals; the
 * special principals {@code public} (anyone, even unauthenticated with auth off) and
 * {@code all_authenticated_users} (anyone signed in) are accepted in every role list.
 *
 * <ul>
 *   <li>flow: owner (creator) and {@code flow_owners} may do everything; {@code flow_administrators}
 *   update and start; {@code flow_starters} start; {@code flow_viewers} see.</li>
 *   <li>run: its creator manages it; the run's own {@code run_managers} manage and {@code run_monitors} see it;
 *   the flow's {@code run_managers} manage and {@code run_monitors} see every run of the flow; flow owners
 *   and administrators manage them too.</li>
 * </ul>
 * Someone who may not see a flow or run is told it does not exist (404), so ids leak nothing. The stores
 * apply the same rules in SQL to page listings (PgRunStore, HibernateFlowStore); RoleAccessApiTest holds both.
 */
public final class Access {

    public static final String PUBLIC = "public";
    public static final String ALL_AUTHENTICATED = "all_authenticated_users";

    private Access() {}

    public static boolean ownsFlow(FlowRecord flow, String user) {
        return user.equals(flow.ownerId()) || member(flow.roles(), "flow_owners", user);
    }

    public static boolean administersFlow(FlowRecord flow, String user) {
        return ownsFlow(flow, user) || member(flow.roles(), "flow_administrators", user);
    }

    public static boolean startsFlow(FlowRecord flow, String user) {
        return administersFlow(flow, user) || member(flow.roles(), "flow_starters", user);
    }

    public static boolean seesFlow(FlowRecord flow, String user) {
        return startsFlow(flow, user) || member(flow.roles(), "flow_viewers", user);
    }

    /** {@code flow} is the version the run was started from. */
    public static boolean managesRun(RunRecord run, FlowRecord flow, String user) {
        return user.equals(run.ownerId()) || member(run.runManagers(), user) || managesRunsOf(flow, user);
    }

    public static boolean seesRun(RunRecord run, FlowRecord flow, String user) {
        return managesRun(run, flow, user) || member(run.runMonitors(), user) || member(flow.roles(), "run_monitors", user);
    }

    /** The roles Globus reports as {@code user_roles} on a flow, strongest first. */
    public static List<String> flowRoles(FlowRecord flow, String user) {
        List<String> roles = new ArrayList<>();
        addIf(roles, ownsFlow(flow, user), "flow_owner");
        addIf(roles, member(flow.roles(), "flow_administrators", user), "flow_administrator");
        addIf(roles, member(flow.roles(), "flow_starters", user), "flow_starter");
        addIf(roles, member(flow.roles(), "flow_viewers", user), "flow_viewer");
        addIf(roles, member(flow.roles(), "run_managers", user), "flow_run_manager");
        addIf(roles, member(flow.roles(), "run_monitors", user), "flow_run_monitor");
        return roles;
    }

    /** The roles Globus reports as {@code user_roles} on a run, strongest first. */
    public static List<String> runRoles(RunRecord run, FlowRecord flow, String user) {
        List<String> roles = new ArrayList<>();
        addIf(roles, user.equals(run.ownerId()), "run_owner");
        addIf(roles, member(run.runManagers(), user), "run_manager");
        addIf(roles, managesRunsOf(flow, user), "flow_run_manager");
        addIf(roles, member(run.runMonitors(), user), "run_monitor");
        addIf(roles, member(flow.roles(), "run_monitors", user), "flow_run_monitor");
        return roles;
    }

    /**
     * What the caller may do to the run now, by its status (cancel an active or inactive run, resume an inactive one,
     * redrive a failed one, release a finished one): the run's {@code user_actions}, so the web UI shows exactly the
     * buttons the engine would accept. Only managers may; with authentication off ({@code viewer} unrestricted) everyone.
     */
    public static List<String> runActions(RunRecord run, FlowRecord flow, Viewer viewer) {
        List<String> actions = new ArrayList<>();
        if (viewer.restricted() && !managesRun(run, flow, viewer.id())) {
            return actions;
        }
        RunStatus status = run.state().status();
        addIf(actions, !status.finished(), "cancel");
        addIf(actions, status == RunStatus.INACTIVE, "resume");
        addIf(actions, status == RunStatus.FAILED, "redrive");
        addIf(actions, status.finished(), "release");
        return actions;
    }

    private static boolean managesRunsOf(FlowRecord flow, String user) {
        return administersFlow(flow, user) || member(flow.roles(), "run_managers", user);
    }

    private static void addIf(List<String> roles, boolean holds, String role) {
        if (holds) {
            roles.add(role);
        }
    }

    private static boolean member(JsonNode roles, String role, String user) {
        if (roles == null) {
            return false;
        }
        List<String> principals = new ArrayList<>();
        roles.path(role).forEach(principal -> principals.add(principal.asText()));
        return member(principals, user);
    }

    /** Whether {@code user} may answer a human-input form: the run's managers and those its state names in selectable_by. */
    public static boolean answersForm(RunRecord run, FlowRecord flow, List<String> selectableBy, String user) {
        return managesRun(run, flow, user) || member(selectableBy, user);
    }

    private static boolean member(List<String> principals, String user) {
        return principals.stream().anyMatch(name -> name.equals(user) || name.equals(PUBLIC) || name.equals(ALL_AUTHENTICATED));
    }
}
