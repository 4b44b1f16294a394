package dev.continuum.provider.api;

/** The life-cycle states of an action, exactly as the Globus Action Provider API names them. */
public enum ActionState {
    ACTIVE,
    INACTIVE,
    SUCCEEDED,
    FAILED;

    /** True once the action can no longer change: SUCCEEDED or FAILED. */
    public boolean terminal() {
        return this == SUCCEEDED || this == FAILED;
    }
}
