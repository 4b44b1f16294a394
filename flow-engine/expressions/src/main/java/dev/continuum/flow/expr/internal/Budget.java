package dev.continuum.flow.expr.internal;

import dev.continuum.flow.expr.ExpressionLimits;
import java.math.BigInteger;

/**
 * What one evaluation may still spend. Checks happen before work is done (e.g. the length of
 * {@code "a" * n} is checked before the string is built), so a hostile expression fails fast
 * instead of exhausting memory.
 */
final class Budget {

    private final ExpressionLimits limits;
    private long steps;
    private long allocated;

    Budget(ExpressionLimits limits) {
        this.limits = limits;
    }

    ExpressionLimits limits() {
        return limits;
    }

    void step() {
        if (++steps > limits.maxSteps()) {
            throw new EvaluationFailure("expression needs more than " + limits.maxSteps() + " evaluation steps");
        }
    }

    void steps(long n) {
        steps += n;
        if (steps > limits.maxSteps() || n < 0) {
            throw new EvaluationFailure("expression needs more than " + limits.maxSteps() + " evaluation steps");
        }
    }

    void checkDepth(int depth) {
        if (depth > limits.maxNesting()) {
            throw new EvaluationFailure("value is nested more than " + limits.maxNesting() + " levels deep");
        }
    }

    void checkStringLength(long length) {
        if (length > limits.maxStringLength()) {
            throw new EvaluationFailure("string result would be longer than " + limits.maxStringLength() + " characters");
        }
    }

    /** Accounts for a string about to be built; length in UTF-16 units. */
    void allocateString(long length) {
        checkStringLength(length);
        allocate(length);
    }

    /** Accounts for a list or dict about to be built. */
    void allocateCollection(long size) {
        if (size > limits.maxCollectionSize()) {
            throw new EvaluationFailure("collection would have more than " + limits.maxCollectionSize() + " elements");
        }
        allocate(size);
    }

    /** Accounts for one more element in a list or dict that now has {@code newSize} elements. */
    void growCollection(long newSize) {
        if (newSize > limits.maxCollectionSize()) {
            throw new EvaluationFailure("collection would have more than " + limits.maxCollectionSize() + " elements");
        }
        allocate(1);
    }

    private void allocate(long amount) {
        allocated += amount;
        steps(amount / 64); // copying a few dozen characters costs about one step
        if (allocated > limits.maxAllocation()) {
            throw new EvaluationFailure("expression builds more than " + limits.maxAllocation()
                    + " characters and elements in total");
        }
    }

    BigInteger checkInteger(BigInteger value) {
        if (value.bitLength() > limits.maxIntegerBits()) {
            throw new EvaluationFailure("integer result would have more than " + limits.maxIntegerBits() + " bits");
        }
        return value;
    }
}
