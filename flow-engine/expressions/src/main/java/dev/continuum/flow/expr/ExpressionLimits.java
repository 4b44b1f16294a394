package dev.continuum.flow.expr;

/**
 * Bounds on one evaluation, so that an expression written by any flow author cannot exhaust the
 * engine's memory or CPU. Every limit, when exceeded, fails the evaluation with an
 * {@link ExpressionException} instead of degrading the process.
 *
 * @param maxExpressionLength characters in the expression text
 * @param maxSteps            evaluation steps (one per syntax node evaluated, plus one per element
 *                            touched by built-in functions that loop)
 * @param maxStringLength     characters in any string built during evaluation
 * @param maxCollectionSize   elements in any list or dict built during evaluation
 * @param maxAllocation       characters plus elements built over the whole evaluation
 * @param maxNesting          nesting depth of the expression syntax and of values walked
 * @param maxResultBytes      approximate JSON size of the final result
 * @param maxIntegerBits      bits in any integer (Python integers are unbounded; ours are not)
 */
public record ExpressionLimits(
        int maxExpressionLength,
        long maxSteps,
        int maxStringLength,
        int maxCollectionSize,
        long maxAllocation,
        int maxNesting,
        long maxResultBytes,
        int maxIntegerBits) {

    private static final ExpressionLimits DEFAULTS = new ExpressionLimits(
            10_000, 1_000_000, 1 << 20, 1 << 20, 16L << 20, 100, 1L << 20, 4096);

    /** Limits generous enough for every real flow seen so far and small enough to be harmless. */
    public static ExpressionLimits defaults() {
        return DEFAULTS;
    }

    public ExpressionLimits {
        if (maxExpressionLength <= 0 || maxSteps <= 0 || maxStringLength <= 0 || maxCollectionSize <= 0
                || maxAllocation <= 0 || maxNesting <= 0 || maxResultBytes <= 0 || maxIntegerBits < 64) {
            throw new IllegalArgumentException("expression limits must be positive (maxIntegerBits at least 64)");
        }
    }
}
