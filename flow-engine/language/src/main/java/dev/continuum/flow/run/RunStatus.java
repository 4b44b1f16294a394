package dev.continuum.flow.run;

/** Where a run stands. ENDED means cancelled by a user; INACTIVE means waiting for a person (consent, resume). */
public enum RunStatus { ACTIVE, INACTIVE, SUCCEEDED, FAILED, ENDED;

    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == ENDED;
    }
}
