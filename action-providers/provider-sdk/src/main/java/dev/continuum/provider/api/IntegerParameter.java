package dev.continuum.provider.api;

/**
 * Reads a whole-number parameter given as text (a query parameter, a command-line option) within bounds. The engine's
 * listings, the Action Provider API routes and every provider's command line read their numbers here, so that a bad
 * value is refused the same way everywhere: by an {@link Invalid} naming the parameter and why.
 */
public final class IntegerParameter {

    private IntegerParameter() {}

    /**
     * {@code value} as an int from {@code min} to {@code max}; {@code fallback} when it is null (not given).
     *
     * @throws Invalid when {@code value} is not a whole number or lies outside the bounds
     */
    public static int parse(String name, String value, int fallback, int min, int max) {
        if (value == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // refused below, naming the parameter
        }
        throw new Invalid(name, value, "must be a number from " + min + " to " + max);
    }

    /** A refused value; the message is {@code "<name> <reason>, not <value>"}, e.g. {@code --port must be a number from 0 to 65535, not x}. */
    public static final class Invalid extends IllegalArgumentException {

        private final String name;
        private final String reason;

        Invalid(String name, String value, String reason) {
            super(name + " " + reason + ", not " + value);
            this.name = name;
            this.reason = reason;
        }

        /** The parameter as it was named, e.g. {@code limit} or {@code --port}. */
        public String name() {
            return name;
        }

        /** Why the value was refused, without the name, e.g. {@code must be a number from 1 to 1000}. */
        public String reason() {
            return reason;
        }
    }
}
