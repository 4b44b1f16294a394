package dev.continuum.flow.expr.internal;

import static dev.continuum.flow.expr.internal.Values.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/** Python 3 arithmetic on JSON values: exact integers, true division, floor division and modulo. */
final class Arithmetic {

    private final Budget budget;

    Arithmetic(Budget budget) {
        this.budget = budget;
    }

    JsonNode binary(String op, JsonNode a, JsonNode b) {
        return switch (op) {
            case "+" -> add(a, b);
            case "-" -> subtract(a, b);
            case "*" -> multiply(a, b);
            case "/" -> divide(a, b);
            case "//" -> floorDivide(a, b);
            case "%" -> modulo(a, b);
            case "**" -> power(a, b);
            default -> throw new IllegalStateException("unknown operator " + op);
        };
    }

    JsonNode negate(JsonNode a) {
        if (Values.isInt(a)) {
            if (Values.fitsLong(a) && Values.asLong(a) != Long.MIN_VALUE) {
                return Values.integer(-Values.asLong(a));
            }
            return Values.integer(Values.asBigInteger(a).negate());
        }
        if (a.isNumber()) {
            return Values.floating(-a.doubleValue());
        }
        throw new EvaluationFailure("bad operand type for unary -: '" + Values.typeName(a) + "'");
    }

    JsonNode plus(JsonNode a) {
        if (Values.isInt(a)) {
            return Values.integer(Values.asBigInteger(a));
        }
        if (a.isNumber()) {
            return a;
        }
        throw new EvaluationFailure("bad operand type for unary +: '" + Values.typeName(a) + "'");
    }

    private JsonNode add(JsonNode a, JsonNode b) {
        if (Values.isInt(a) && Values.isInt(b)) {
            if (Values.fitsLong(a) && Values.fitsLong(b)) {
                long x = Values.asLong(a);
                long y = Values.asLong(b);
                long r = x + y;
                if (((x ^ r) & (y ^ r)) >= 0) {
                    return Values.integer(r);
                }
            }
            return bigResult(Values.asBigInteger(a).add(Values.asBigInteger(b)));
        }
        if (Values.isNumber(a) && Values.isNumber(b)) {
            return Values.floating(Values.asDouble(a) + Values.asDouble(b));
        }
        if (a.isTextual() && b.isTextual()) {
            budget.allocateString((long) a.textValue().length() + b.textValue().length());
            return Values.text(a.textValue() + b.textValue());
        }
        if (a.isArray() && b.isArray()) {
            budget.allocateCollection((long) a.size() + b.size());
            ArrayNode out = JSON.arrayNode(a.size() + b.size());
            out.addAll((ArrayNode) a);
            out.addAll((ArrayNode) b);
            return out;
        }
        throw unsupported("+", a, b);
    }

    private JsonNode subtract(JsonNode a, JsonNode b) {
        if (Values.isInt(a) && Values.isInt(b)) {
            if (Values.fitsLong(a) && Values.fitsLong(b)) {
                long x = Values.asLong(a);
                long y = Values.asLong(b);
                long r = x - y;
                if (((x ^ y) & (x ^ r)) >= 0) {
                    return Values.integer(r);
                }
            }
            return bigResult(Values.asBigInteger(a).subtract(Values.asBigInteger(b)));
        }
        if (Values.isNumber(a) && Values.isNumber(b)) {
            return Values.floating(Values.asDouble(a) - Values.asDouble(b));
        }
        throw unsupported("-", a, b);
    }

    private JsonNode multiply(JsonNode a, JsonNode b) {
        if (Values.isInt(a) && Values.isInt(b)) {
            if (Values.fitsLong(a) && Values.fitsLong(b)) {
                long x = Values.asLong(a);
                long y = Values.asLong(b);
                long hi = Math.multiplyHigh(x, y);
                long lo = x * y;
                if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
                    return Values.integer(lo);
                }
            }
            BigInteger x = Values.asBigInteger(a);
            BigInteger y = Values.asBigInteger(b);
            if ((long) x.bitLength() + y.bitLength() > budget.limits().maxIntegerBits() + 1L) {
                budget.checkInteger(BigInteger.ONE.shiftLeft(budget.limits().maxIntegerBits() + 1));
            }
            return bigResult(x.multiply(y));
        }
        if (Values.isNumber(a) && Values.isNumber(b)) {
            return Values.floating(Values.asDouble(a) * Values.asDouble(b));
        }
        if ((a.isTextual() || a.isArray()) && Values.isInt(b)) {
            return repeat(a, b);
        }
        if (Values.isInt(a) && (b.isTextual() || b.isArray())) {
            return repeat(b, a);
        }
        throw unsupported("*", a, b);
    }

    private JsonNode repeat(JsonNode sequence, JsonNode times) {
        long n = Values.fitsLong(times) ? Math.max(0, Values.asLong(times))
                : (Values.asBigInteger(times).signum() < 0 ? 0 : Long.MAX_VALUE);
        if (sequence.isTextual()) {
            String s = sequence.textValue();
            if (n == 0 || s.isEmpty()) {
                return Values.text("");
            }
            budget.allocateString(n > Integer.MAX_VALUE / s.length() ? Long.MAX_VALUE : n * s.length());
            return Values.text(s.repeat((int) n));
        }
        int size = sequence.size();
        ArrayNode out = JSON.arrayNode();
        if (n == 0 || size == 0) {
            return out;
        }
        budget.allocateCollection(n > Integer.MAX_VALUE / size ? Long.MAX_VALUE : n * size);
        for (long i = 0; i < n; i++) {
            out.addAll((ArrayNode) sequence);
        }
        return out;
    }

    private JsonNode divide(JsonNode a, JsonNode b) {
        if (!(Values.isNumber(a) && Values.isNumber(b))) {
            throw unsupported("/", a, b);
        }
        checkNotZero(b, "division by zero");
        if (Values.isInt(a) && Values.isInt(b) && !(Values.fitsLong(a) && Values.fitsLong(b)
                && Math.abs(Values.asLong(a)) < (1L << 53) && Math.abs(Values.asLong(b)) < (1L << 53))) {
            // exact operands beyond double precision: divide exactly, then round once, as Python does
            BigDecimal q = new BigDecimal(Values.asBigInteger(a))
                    .divide(new BigDecimal(Values.asBigInteger(b)), MathContext.DECIMAL128);
            return Values.floating(q.doubleValue());
        }
        return Values.floating(Values.asDouble(a) / Values.asDouble(b));
    }

    private JsonNode floorDivide(JsonNode a, JsonNode b) {
        if (!(Values.isNumber(a) && Values.isNumber(b))) {
            throw unsupported("//", a, b);
        }
        checkNotZero(b, "integer division or modulo by zero");
        if (Values.isInt(a) && Values.isInt(b)) {
            if (Values.fitsLong(a) && Values.fitsLong(b)
                    && !(Values.asLong(a) == Long.MIN_VALUE && Values.asLong(b) == -1)) {
                return Values.integer(Math.floorDiv(Values.asLong(a), Values.asLong(b)));
            }
            BigInteger[] qr = Values.asBigInteger(a).divideAndRemainder(Values.asBigInteger(b));
            BigInteger q = qr[0];
            if (qr[1].signum() != 0 && qr[1].signum() != Values.asBigInteger(b).signum()) {
                q = q.subtract(BigInteger.ONE);
            }
            return bigResult(q);
        }
        return Values.floating(floatDivMod(Values.asDouble(a), Values.asDouble(b))[0]);
    }

    private JsonNode modulo(JsonNode a, JsonNode b) {
        if (a.isTextual()) {
            return Values.text(Formatting.percent(a.textValue(), b, budget));
        }
        if (!(Values.isNumber(a) && Values.isNumber(b))) {
            throw unsupported("%", a, b);
        }
        checkNotZero(b, "integer division or modulo by zero");
        if (Values.isInt(a) && Values.isInt(b)) {
            if (Values.fitsLong(a) && Values.fitsLong(b)) {
                return Values.integer(Math.floorMod(Values.asLong(a), Values.asLong(b)));
            }
            BigInteger m = Values.asBigInteger(b);
            BigInteger r = Values.asBigInteger(a).mod(m.abs());
            if (m.signum() < 0 && r.signum() != 0) {
                r = r.add(m);
            }
            return bigResult(r);
        }
        return Values.floating(floatDivMod(Values.asDouble(a), Values.asDouble(b))[1]);
    }

    /** CPython's float_divmod, so that -7.5 // 2 and -7.5 % 2 agree with Python to the last bit. */
    private static double[] floatDivMod(double vx, double wx) {
        double mod = vx % wx;
        double div = (vx - mod) / wx;
        if (mod != 0) {
            if ((wx < 0) != (mod < 0)) {
                mod += wx;
                div -= 1.0;
            }
        } else {
            mod = Math.copySign(0.0, wx);
        }
        double floordiv;
        if (div != 0) {
            floordiv = Math.floor(div);
            if (div - floordiv > 0.5) {
                floordiv += 1.0;
            }
        } else {
            floordiv = Math.copySign(0.0, vx / wx);
        }
        return new double[] {floordiv, mod};
    }

    private JsonNode power(JsonNode a, JsonNode b) {
        if (!(Values.isNumber(a) && Values.isNumber(b))) {
            throw unsupported("**", a, b);
        }
        if (Values.isInt(a) && Values.isInt(b)) {
            BigInteger base = Values.asBigInteger(a);
            BigInteger exponent = Values.asBigInteger(b);
            if (exponent.signum() >= 0) {
                if (base.abs().compareTo(BigInteger.ONE) <= 0) {
                    // 0, 1 and -1 stay small for any exponent; only the exponent's parity matters
                    int small = exponent.signum() == 0 ? 0 : (exponent.testBit(0) ? 1 : 2);
                    return Values.integer(base.pow(small));
                }
                long lowerBoundBits = (long) (base.abs().bitLength() - 1) * exponent.min(BigInteger.valueOf(Integer.MAX_VALUE)).longValue();
                if (exponent.bitLength() > 31 || lowerBoundBits > budget.limits().maxIntegerBits()) {
                    throw new EvaluationFailure("integer result would have more than "
                            + budget.limits().maxIntegerBits() + " bits");
                }
                return bigResult(base.pow(exponent.intValue()));
            }
            if (base.signum() == 0) {
                throw new EvaluationFailure("0.0 cannot be raised to a negative power");
            }
        }
        double x = Values.asDouble(a);
        double y = Values.asDouble(b);
        if (x == 0 && y < 0) {
            throw new EvaluationFailure("0.0 cannot be raised to a negative power");
        }
        if (x < 0 && y != Math.rint(y)) {
            throw new EvaluationFailure("a negative number cannot be raised to a fractional power (the result is complex)");
        }
        double r = Math.pow(x, y);
        if (!Double.isFinite(r)) {
            throw new EvaluationFailure("numerical result is out of range");
        }
        return Values.floating(r);
    }

    private JsonNode bigResult(BigInteger value) {
        return Values.integer(budget.checkInteger(value));
    }

    private static void checkNotZero(JsonNode b, String message) {
        boolean zero = Values.isInt(b) ? Values.asBigInteger(b).signum() == 0 : b.doubleValue() == 0.0;
        if (zero) {
            throw new EvaluationFailure(Values.isFloat(b) ? "float division by zero" : message);
        }
    }

    static EvaluationFailure unsupported(String op, JsonNode a, JsonNode b) {
        return new EvaluationFailure("unsupported operand types for " + op + ": '"
                + Values.typeName(a) + "' and '" + Values.typeName(b) + "'");
    }
}
