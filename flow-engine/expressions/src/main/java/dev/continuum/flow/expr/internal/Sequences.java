package dev.continuum.flow.expr.internal;

import static dev.continuum.flow.expr.internal.Values.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/** Python indexing, slicing, membership and length for str, list and dict. */
final class Sequences {

    private Sequences() {
    }

    static JsonNode index(JsonNode target, JsonNode key, Budget budget) {
        if (target.isObject()) {
            if (!(key.isTextual() || Values.isNumber(key) || key.isNull())) {
                throw new EvaluationFailure("unhashable type: '" + Values.typeName(key) + "'");
            }
            JsonNode value = target.get(Values.dictKey(key, budget));
            if (value == null) {
                throw new EvaluationFailure("key " + Values.repr(key, budget) + " not found in dict");
            }
            return value;
        }
        if (target.isArray() || target.isTextual()) {
            if (!Values.isInt(key)) {
                throw new EvaluationFailure(Values.typeName(target) + " indices must be integers, not "
                        + Values.typeName(key));
            }
            if (target.isArray()) {
                long i = normalize(key, target.size(), "list");
                return target.get((int) i);
            }
            String s = target.textValue();
            budget.steps(s.length() / 64);
            int length = Values.codePointLength(s);
            long i = normalize(key, length, "string");
            int offset = s.offsetByCodePoints(0, (int) i);
            return Values.text(new String(Character.toChars(s.codePointAt(offset))));
        }
        throw new EvaluationFailure("'" + Values.typeName(target) + "' object is not subscriptable");
    }

    private static long normalize(JsonNode key, int length, String kind) {
        if (!Values.fitsLong(key)) {
            throw new EvaluationFailure(kind + " index out of range");
        }
        long i = Values.asLong(key);
        if (i < 0) {
            i += length;
        }
        if (i < 0 || i >= length) {
            throw new EvaluationFailure(kind + " index out of range");
        }
        return i;
    }

    static JsonNode slice(JsonNode target, JsonNode lower, JsonNode upper, JsonNode stepNode, Budget budget) {
        if (!(target.isArray() || target.isTextual())) {
            throw new EvaluationFailure("'" + Values.typeName(target) + "' object is not subscriptable");
        }
        long step = bound(stepNode, 1);
        if (step == 0) {
            throw new EvaluationFailure("slice step cannot be zero");
        }
        if (target.isTextual()) {
            budget.steps(target.textValue().length() / 64);
        }
        int[] codePoints = target.isTextual() ? target.textValue().codePoints().toArray() : null;
        int length = codePoints != null ? codePoints.length : target.size();
        long start;
        long stop;
        if (step > 0) {
            start = clamp(bound(lower, 0), length, 0, length);
            stop = clamp(bound(upper, length), length, 0, length);
        } else {
            start = clamp(bound(lower, length - 1L), length, -1, length - 1L);
            stop = clamp(bound(upper, -1L - length), length, -1, length - 1L);
        }
        long count = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                : (start > stop ? (start - stop - step - 1) / -step : 0);
        budget.steps(count);
        if (codePoints != null) {
            budget.allocateString(count);
            StringBuilder out = new StringBuilder();
            for (long i = start, n = 0; n < count; i += step, n++) {
                out.appendCodePoint(codePoints[(int) i]);
            }
            return Values.text(out.toString());
        }
        budget.allocateCollection(count);
        ArrayNode out = JSON.arrayNode((int) count);
        for (long i = start, n = 0; n < count; i += step, n++) {
            out.add(target.get((int) i));
        }
        return out;
    }

    private static long bound(JsonNode v, long absent) {
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!Values.isInt(v)) {
            throw new EvaluationFailure("slice indices must be integers or None, not " + Values.typeName(v));
        }
        if (!Values.fitsLong(v)) {
            return Values.asBigInteger(v).signum() < 0 ? Long.MIN_VALUE / 4 : Long.MAX_VALUE / 4;
        }
        return Math.max(Long.MIN_VALUE / 4, Math.min(Long.MAX_VALUE / 4, Values.asLong(v)));
    }

    /** CPython's PySlice_AdjustIndices for one bound. */
    private static long clamp(long index, int length, long low, long high) {
        if (index < 0) {
            index += length;
            if (index < 0) {
                index = low;
            }
        } else if (index >= length) {
            index = high;
        }
        return index;
    }

    static boolean contains(JsonNode container, JsonNode item, Budget budget) {
        if (container.isTextual()) {
            if (!item.isTextual()) {
                throw new EvaluationFailure("'in <string>' requires string as left operand, not " + Values.typeName(item));
            }
            budget.steps(container.textValue().length() / 16);
            return container.textValue().contains(item.textValue());
        }
        if (container.isArray()) {
            for (JsonNode element : container) {
                if (Values.pyEquals(element, item, budget)) {
                    return true;
                }
            }
            return false;
        }
        if (container.isObject()) {
            if (item.isArray() || item.isObject()) {
                throw new EvaluationFailure("unhashable type: '" + Values.typeName(item) + "'");
            }
            return container.has(Values.dictKey(item, budget));
        }
        throw new EvaluationFailure("argument of type '" + Values.typeName(container) + "' is not iterable");
    }

    static int length(JsonNode v) {
        if (v.isTextual()) {
            return Values.codePointLength(v.textValue());
        }
        if (v.isContainerNode()) {
            return v.size();
        }
        throw new EvaluationFailure("object of type '" + Values.typeName(v) + "' has no len()");
    }

}
