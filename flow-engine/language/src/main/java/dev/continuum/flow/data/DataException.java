package dev.continuum.flow.data;

/**
 * The run's data does not fit what a state asks of it (a path matched nothing, a value has the
 * wrong type, an expression failed). The message is the Cause shown to the user; it names the
 * state, the field and the path.
 */
public final class DataException extends Exception {

    public DataException(String message) {
        super(message);
    }
}
