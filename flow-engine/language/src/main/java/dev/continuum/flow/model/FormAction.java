package dev.continuum.flow.model;

import java.util.Set;

/**
 * Human input: an Action state whose ActionUrl is {@link #URL} waits for a person to submit a form.
 * The engine answers that URL itself (no provider is called): the action stays INACTIVE, so the run does,
 * until someone allowed submits a value that satisfies the form's JSON schema; the submission is the action's
 * {@code details}, placed at ResultPath like any action status. Shaped after Globus' "Wait for User Option
 * Selection" provider (an Action whose {@code selectable_by} names who may answer), with a JSON schema where
 * that one has a fixed list of options. See docs/decisions/0018-human-input-as-an-action.md.
 */
public final class FormAction {

    /** Never contacted: the engine recognises it and keeps the form in the run's own state. */
    public static final String URL = "https://actions.continuum.dev/user_input";

    public static final String TITLE = "title";
    public static final String DESCRIPTION = "description";
    public static final String SCHEMA = "schema";
    /** Who may submit besides the run's owner and managers (Globus' weboption field). */
    public static final String SELECTABLE_BY = "selectable_by";

    public static final Set<String> PARAMETERS = Set.of(TITLE, DESCRIPTION, SCHEMA, SELECTABLE_BY);

    private FormAction() {
    }

    public static boolean is(String actionUrl) {
        if (actionUrl == null) {
            return false;
        }
        String url = actionUrl.endsWith("/") ? actionUrl.substring(0, actionUrl.length() - 1) : actionUrl;
        return URL.equals(url);
    }
}
