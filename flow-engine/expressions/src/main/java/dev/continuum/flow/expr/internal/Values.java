package dev.continuum.flow.expr.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Python value semantics over Jackson nodes: a JSON null is {@code None}, a boolean is {@code bool},
 * an integral number is {@code int}, any other number is {@code float}, text is {@code str}, an
 * array is {@code list} and an object is {@code dict}.
 */
final class Values {

    static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private Values() {
    }

    static String typeName(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "NoneType";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        if (v.isIntegralNumber()) {
            return "int";
        }
        if (v.isNumber()) {
            return "float";
        }
        if (v.isTextual()) {
            return "str";
        }
        if (v.isArray()) {
            return "list";
        }
        if (v.isObject()) {
            return "dict";
        }
        return "object";
    }

    /** int or bool (Python's bool is a subclass of int). */
    static boolean isInt(JsonNode v) {
        return v.isIntegralNumber() || v.isBoolean();
    }

    static boolean isNumber(JsonNode v) {
        return v.isNumber() || v.isBoolean();
    }

    static boolean isFloat(JsonNode v) {
        return v.isNumber() && !v.isIntegralNumber();
    }

    static JsonNode integer(long value) {
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE
                ? JSON.numberNode((int) value)
                : JSON.numberNode(value);
    }

    /** Integral numbers are stored in the smallest node that holds them, as Jackson's parser does. */
    static JsonNode integer(BigInteger value) {
        if (value.compareTo(LONG_MIN) >= 0 && value.compareTo(LONG_MAX) <= 0) {
            return integer(value.longValue());
        }
        return JSON.numberNode(value);
    }

    static JsonNode floating(double value) {
        if (!Double.isFinite(value)) {
            throw new EvaluationFailure("float result is out of range (JSON has no infinity or NaN)");
        }
        return JSON.numberNode(value);
    }

    static JsonNode bool(boolean value) {
        return BooleanNode.valueOf(value);
    }

    static JsonNode text(String value) {
        return TextNode.valueOf(value);
    }

    static JsonNode none() {
        return NullNode.getInstance();
    }

    /** The value of an int or bool as a long, or null when it does not fit. */
    static boolean fitsLong(JsonNode v) {
        return v.isBoolean() || (v.isIntegralNumber() && v.canConvertToLong());
    }

    static long asLong(JsonNode v) {
        return v.isBoolean() ? (v.booleanValue() ? 1 : 0) : v.longValue();
    }

    /** An int argument clamped to the long range (huge values only ever mean "as far as possible"). */
    static long requireInt(JsonNode v, String what) {
        if (!isInt(v)) {
            throw new EvaluationFailure("'" + typeName(v) + "' object cannot be interpreted as an integer (" + what + ")");
        }
        if (fitsLong(v)) {
            return asLong(v);
        }
        return v.bigIntegerValue().signum() < 0 ? Long.MIN_VALUE / 4 : Long.MAX_VALUE / 4;
    }

    static BigInteger asBigInteger(JsonNode v) {
        return v.isBoolean() ? BigInteger.valueOf(asLong(v)) : v.bigIntegerValue();
    }

    static double asDouble(JsonNode v) {
        if (v.isBoolean()) {
            return v.booleanValue() ? 1 : 0;
        }
        if (v.isBigInteger()) {
            double d = v.bigIntegerValue().doubleValue();
            if (Double.isInfinite(d)) {
                throw new EvaluationFailure("int too large to convert to float");
            }
            return d;
        }
        return v.doubleValue();
    }

    static boolean truthy(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return false;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isIntegralNumber()) {
            return v.isBigInteger() ? v.bigIntegerValue().signum() != 0 : v.longValue() != 0;
        }
        if (v.isNumber()) {
            return v.doubleValue() != 0.0;
        }
        if (v.isTextual()) {
            return !v.textValue().isEmpty();
        }
        return v.size() > 0;
    }

    /** Python {@code ==}: numbers compare by value across int/float/bool, containers element-wise. */
    static boolean pyEquals(JsonNode a, JsonNode b, Budget budget) {
        return pyEquals(a, b, budget, 0);
    }

    private static boolean pyEquals(JsonNode a, JsonNode b, Budget budget, int depth) {
        budget.step();
        if (a == b) {
            return true;
        }
        budget.checkDepth(depth);
        if (isNumber(a) && isNumber(b)) {
            return compareNumbers(a, b) == 0;
        }
        if (a.isNull() || b.isNull()) {
            return a.isNull() && b.isNull();
        }
        if (a.isTextual() && b.isTextual()) {
            budget.steps(Math.min(a.textValue().length(), b.textValue().length()) / 64);
            return a.textValue().equals(b.textValue());
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!pyEquals(a.get(i), b.get(i), budget, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode other = b.get(e.getKey());
                if (other == null || !pyEquals(e.getValue(), other, budget, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    static int compareNumbers(JsonNode a, JsonNode b) {
        if (isInt(a) && isInt(b)) {
            if (fitsLong(a) && fitsLong(b)) {
                return Long.compare(asLong(a), asLong(b));
            }
            return asBigInteger(a).compareTo(asBigInteger(b));
        }
        if (a.isBigInteger() || b.isBigInteger() || a.isBigDecimal() || b.isBigDecimal()) {
            return exactDecimal(a).compareTo(exactDecimal(b));
        }
        return Double.compare(asDouble(a), asDouble(b)) == 0 ? 0 : (asDouble(a) < asDouble(b) ? -1 : 1);
    }

    private static BigDecimal exactDecimal(JsonNode v) {
        if (isInt(v)) {
            return new BigDecimal(asBigInteger(v));
        }
        return v.isBigDecimal() ? v.decimalValue() : new BigDecimal(v.doubleValue());
    }

    /** Python ordering ({@code <} and friends); mixed types raise TypeError as in Python 3. */
    static int compare(JsonNode a, JsonNode b, String op, Budget budget) {
        return compare(a, b, op, budget, 0);
    }

    private static int compare(JsonNode a, JsonNode b, String op, Budget budget, int depth) {
        budget.step();
        budget.checkDepth(depth);
        if (isNumber(a) && isNumber(b)) {
            return compareNumbers(a, b);
        }
        if (a.isTextual() && b.isTextual()) {
            budget.steps(Math.min(a.textValue().length(), b.textValue().length()) / 64);
            return compareCodePoints(a.textValue(), b.textValue());
        }
        if (a.isArray() && b.isArray()) {
            int n = Math.min(a.size(), b.size());
            for (int i = 0; i < n; i++) {
                if (!pyEquals(a.get(i), b.get(i), budget)) {
                    return compare(a.get(i), b.get(i), op, budget, depth + 1);
                }
            }
            return Integer.compare(a.size(), b.size());
        }
        throw new EvaluationFailure("'" + op + "' not supported between instances of '"
                + typeName(a) + "' and '" + typeName(b) + "'");
    }

    /** Python compares strings by code point, not by UTF-16 unit. */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** The elements Python's {@code for} would visit: list items, dict keys, string characters. */
    static List<JsonNode> iterate(JsonNode v, Budget budget) {
        if (v.isArray()) {
            budget.steps(v.size());
            List<JsonNode> out = new ArrayList<>(v.size());
            v.forEach(out::add);
            return out;
        }
        if (v.isObject()) {
            budget.steps(v.size());
            List<JsonNode> out = new ArrayList<>(v.size());
            v.fieldNames().forEachRemaining(k -> out.add(text(k)));
            return out;
        }
        if (v.isTextual()) {
            String s = v.textValue();
            budget.steps(s.length());
            List<JsonNode> out = new ArrayList<>();
            s.codePoints().forEach(cp -> out.add(text(new String(Character.toChars(cp)))));
            return out;
        }
        throw new EvaluationFailure("'" + typeName(v) + "' object is not iterable");
    }

    /** Python {@code str(v)}. */
    static String str(JsonNode v, Budget budget) {
        if (v.isTextual()) {
            return v.textValue();
        }
        StringBuilder out = new StringBuilder();
        repr(v, out, budget, 0);
        return out.toString();
    }

    /** Python {@code repr(v)}. */
    static String repr(JsonNode v, Budget budget) {
        StringBuilder out = new StringBuilder();
        repr(v, out, budget, 0);
        return out.toString();
    }

    private static void repr(JsonNode v, StringBuilder out, Budget budget, int depth) {
        budget.step();
        budget.checkDepth(depth);
        budget.checkStringLength(out.length());
        if (v.isNull() || v.isMissingNode()) {
            out.append("None");
        } else if (v.isBoolean()) {
            out.append(v.booleanValue() ? "True" : "False");
        } else if (v.isIntegralNumber()) {
            out.append(v.bigIntegerValue().toString());
        } else if (v.isNumber()) {
            out.append(formatFloat(v.doubleValue()));
        } else if (v.isTextual()) {
            quote(v.textValue(), out);
        } else if (v.isArray()) {
            out.append('[');
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                repr(v.get(i), out, budget, depth + 1);
            }
            out.append(']');
        } else if (v.isObject()) {
            out.append('{');
            boolean first = true;
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!first) {
                    out.append(", ");
                }
                first = false;
                quote(e.getKey(), out);
                out.append(": ");
                repr(e.getValue(), out, budget, depth + 1);
            }
            out.append('}');
        } else {
            out.append(v.toString());
        }
    }

    private static void quote(String s, StringBuilder out) {
        char q = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        out.append(q);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c == q) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append(q);
    }

    /** Python's repr of a float: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
    static String formatFloat(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        // Java's Double.toString gives the shortest round-trip digits (JDK 19+); re-layout them.
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = exact.unscaledValue().toString();
        int exponent = digits.length() - 1 - exact.scale(); // decimal exponent of the first digit
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        if (exponent < -4 || exponent >= 16) {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            int abs = Math.abs(exponent);
            out.append(abs < 10 ? "0" + abs : String.valueOf(abs));
        } else if (exponent < 0) {
            out.append("0.").append("0".repeat(-exponent - 1)).append(digits);
        } else if (digits.length() <= exponent + 1) {
            out.append(digits).append("0".repeat(exponent + 1 - digits.length())).append(".0");
        } else {
            out.append(digits, 0, exponent + 1).append('.').append(digits, exponent + 1, digits.length());
        }
        return out.toString();
    }

    /** Python's dict keys become JSON member names as {@code json.dumps} would write them. */
    static String dictKey(JsonNode key, Budget budget) {
        if (key.isTextual()) {
            return key.textValue();
        }
        if (key.isNull()) {
            return "null";
        }
        if (key.isBoolean()) {
            return key.booleanValue() ? "true" : "false";
        }
        if (key.isNumber()) {
            return str(key, budget);
        }
        throw new EvaluationFailure("unhashable type: '" + typeName(key) + "'");
    }

    static int codePointLength(String s) {
        return s.codePointCount(0, s.length());
    }
}
