package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Who may do what with a flow or a run (Globus Flows roles). Each role lists principals; the
 * special principals {@code public} (anyone, even unauthenticated with auth off) and
 * {@code all_authenticated_users} (anyone signed in) are accepted in every role list.
 *
 * <ul>
 *   <li>flow: owner (creator) and {@code flow_owners} may do everything; {@code flow_administrators}
 *   update and start; {@code flow_starters} start; {@code flow_viewers} see.</li>
 *   <li>run: its creator manages it; {@code run_managers} (from the flow) manage and
 *   {@code run_monitors} see every run of the flow; flow owners and administrators manage them too.</li>
 * </ul>
 * Someone who may not see a flow or run is told it does not exist (404), so ids leak nothing.
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
        return user.equals(run.ownerId()) || administersFlow(flow, user) || member(flow.roles(), "run_managers", user);
    }

    public static boolean seesRun(RunRecord run, FlowRecord flow, String user) {
        return managesRun(run, flow, user) || member(flow.roles(), "run_monitors", user);
    }

    private static boolean member(JsonNode roles, String role, String user) {
        if (roles == null) {
            return false;
        }
        for (JsonNode principal : roles.path(role)) {
            String name = principal.asText();
            if (name.equals(user) || name.equals(PUBLIC) || name.equals(ALL_AUTHENTICATED)) {
                return true;
            }
        }
        return false;
    }
}
