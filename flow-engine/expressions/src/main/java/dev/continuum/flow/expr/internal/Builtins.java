package dev.continuum.flow.expr.internal;

import static dev.continuum.flow.expr.internal.Values.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The functions an expression may call: the Globus ones ({@code pathsplit}, {@code is_present},
 * {@code getattr}) and a safe subset of Python's built-ins. Nothing here reaches outside the values
 * it is given.
 */
final class Builtins {

    static final Set<String> NAMES = Set.of("pathsplit", "is_present", "getattr", "len", "str", "repr", "int",
            "float", "bool", "abs", "min", "max", "sum", "range", "sorted", "reversed", "round", "list", "dict",
            "any", "all", "enumerate", "zip");

    private static final Pattern FLOAT_TEXT =
            Pattern.compile("[+-]?((\\d(_?\\d)*)?\\.?\\d(_?\\d)*|\\d(_?\\d)*\\.)([eE][+-]?\\d(_?\\d)*)?");

    private final Evaluator evaluator;
    private final Budget budget;
    private final Arithmetic arithmetic;

    Builtins(Evaluator evaluator, Budget budget) {
        this.evaluator = evaluator;
        this.budget = budget;
        this.arithmetic = new Arithmetic(budget);
    }

    JsonNode call(Node.Call call) {
        String f = call.function();
        if (!NAMES.contains(f)) {
            if (evaluator.variable(f) != null) {
                throw new EvaluationFailure("'" + f + "' is not a function", call.position());
            }
            throw new EvaluationFailure("function '" + f + "' is not defined", call.position());
        }
        List<JsonNode> args = evaluator.evalAll(call.args());
        Map<String, JsonNode> kw = evaluator.evalKeywords(call.keywords());
        Arguments a = new Arguments(f, args, kw);
        return switch (f) {
            case "pathsplit" -> pathsplit(a.string(0, "path"));
            case "is_present" -> Values.bool(evaluator.statePath(a.string(0, "path")) != null);
            case "getattr" -> getattr(a);
            case "len" -> Values.integer(Sequences.length(a.required(0, "obj", 1)));
            case "str" -> Values.text(a.count(0, 1) == 0 ? "" : stringOf(a.positional(0)));
            case "repr" -> Values.text(Values.repr(a.required(0, "obj", 1), budget));
            case "int" -> toInt(a);
            case "float" -> toFloat(a.count(0, 1) == 0 ? Values.integer(0) : a.positional(0));
            case "bool" -> Values.bool(a.count(0, 1) != 0 && Values.truthy(a.positional(0)));
            case "abs" -> abs(a.required(0, "x", 1));
            case "min" -> extreme(a, -1);
            case "max" -> extreme(a, 1);
            case "sum" -> sum(a);
            case "range" -> range(a);
            case "sorted" -> sorted(a);
            case "reversed" -> reversed(a.required(0, "sequence", 1));
            case "round" -> round(a);
            case "list" -> list(a.count(0, 1) == 0 ? JSON.arrayNode() : a.positional(0));
            case "dict" -> dict(a);
            case "any" -> anyAll(a.required(0, "iterable", 1), true);
            case "all" -> anyAll(a.required(0, "iterable", 1), false);
            case "enumerate" -> enumerate(a);
            case "zip" -> zip(a);
            default -> throw new IllegalStateException("unhandled builtin " + f);
        };
    }

    /** Positional and keyword arguments with Python's arity messages. */
    private static final class Arguments {
        final String function;
        final List<JsonNode> args;
        final Map<String, JsonNode> kw;

        Arguments(String function, List<JsonNode> args, Map<String, JsonNode> kw) {
            this.function = function;
            this.args = args;
            this.kw = kw;
        }

        int count(int min, int max) {
            if (args.size() < min || args.size() > max) {
                String expected = min == max ? String.valueOf(min) : min + " to " + max;
                throw new EvaluationFailure(function + "() takes " + expected + " positional argument"
                        + (max == 1 ? "" : "s") + " but " + args.size() + " were given");
            }
            return args.size();
        }

        JsonNode positional(int i) {
            return args.get(i);
        }

        JsonNode required(int i, String name, int max) {
            count(i + 1, max);
            allowKeywords();
            return args.get(i);
        }

        String string(int i, String name) {
            JsonNode v = required(i, name, i + 1);
            if (!v.isTextual()) {
                throw new EvaluationFailure(function + "() argument '" + name + "' must be str, not " + Values.typeName(v));
            }
            return v.textValue();
        }

        JsonNode keyword(String name) {
            return kw.get(name);
        }

        void allowKeywords(String... allowed) {
            for (String k : kw.keySet()) {
                if (!List.of(allowed).contains(k)) {
                    throw new EvaluationFailure(function + "() got an unexpected keyword argument '" + k + "'");
                }
            }
        }
    }

    /** Globus pathsplit: like os.path.split, but the Globus Transfer root "/~/" is never split. */
    private JsonNode pathsplit(String path) {
        int cut = path.lastIndexOf('/') + 1;
        String head = path.substring(0, cut);
        String tail = path.substring(cut);
        if (!head.equals("/~/") && !head.isEmpty() && !head.chars().allMatch(c -> c == '/')) {
            head = head.replaceAll("/+$", "");
        }
        return JSON.arrayNode().add(head).add(tail);
    }

    /** Globus getattr('path', default) reads the state; Python's getattr(dict, 'key', default) reads a dict. */
    private JsonNode getattr(Arguments a) {
        a.count(1, 3);
        a.allowKeywords("default");
        JsonNode first = a.positional(0);
        if (first.isObject() && a.args.size() >= 2 && a.positional(1).isTextual()) {
            JsonNode value = first.get(a.positional(1).textValue());
            if (value != null) {
                return value;
            }
            if (a.args.size() == 3) {
                return a.positional(2);
            }
            throw new EvaluationFailure("'dict' object has no key or attribute '" + a.positional(1).textValue() + "'");
        }
        if (!first.isTextual()) {
            throw new EvaluationFailure("getattr() expects a path string or a dict, not " + Values.typeName(first));
        }
        a.count(1, 2);
        JsonNode value = evaluator.statePath(first.textValue());
        if (value != null) {
            return value;
        }
        JsonNode fallback = a.args.size() == 2 ? a.positional(1) : a.keyword("default");
        return fallback == null ? Values.none() : fallback;
    }

    private String stringOf(JsonNode v) {
        String s = Values.str(v, budget);
        budget.allocateString(s.length());
        return s;
    }

    private JsonNode toInt(Arguments a) {
        a.count(0, 2);
        a.allowKeywords("base");
        if (a.args.isEmpty()) {
            return Values.integer(0);
        }
        JsonNode v = a.positional(0);
        JsonNode baseNode = a.args.size() == 2 ? a.positional(1) : a.keyword("base");
        if (baseNode != null && !v.isTextual()) {
            throw new EvaluationFailure("int() can't convert non-string with explicit base");
        }
        if (Values.isInt(v)) {
            return Values.integer(Values.asBigInteger(v));
        }
        if (v.isNumber()) {
            double d = v.doubleValue();
            return Values.integer(budget.checkInteger(new BigDecimal(d).toBigInteger()));
        }
        if (v.isTextual()) {
            long base = baseNode == null ? 10 : Values.requireInt(baseNode, "base");
            if (base < 2 || base > 36) {
                throw new EvaluationFailure("int() base must be >= 2 and <= 36");
            }
            String s = v.textValue().strip().replace("_", "");
            String digits = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
            if (base == 16 && digits.toLowerCase().startsWith("0x") || base == 8 && digits.toLowerCase().startsWith("0o")
                    || base == 2 && digits.toLowerCase().startsWith("0b")) {
                digits = digits.substring(2);
            }
            try {
                if (digits.isEmpty() || digits.length() > 1300 || v.textValue().contains("__")
                        || !Character.isLetterOrDigit(digits.charAt(0))) {
                    throw new NumberFormatException();
                }
                BigInteger value = new BigInteger(digits, (int) base);
                return Values.integer(budget.checkInteger(s.startsWith("-") ? value.negate() : value));
            } catch (NumberFormatException | ArithmeticException e) {
                throw new EvaluationFailure("invalid literal for int() with base " + base + ": "
                        + Values.repr(v, budget));
            }
        }
        throw new EvaluationFailure("int() argument must be a string or a number, not '" + Values.typeName(v) + "'");
    }

    private JsonNode toFloat(JsonNode v) {
        if (Values.isNumber(v)) {
            return Values.floating(Values.asDouble(v));
        }
        if (v.isTextual()) {
            String s = v.textValue().strip();
            if (!FLOAT_TEXT.matcher(s).matches()) {
                throw new EvaluationFailure("could not convert string to float: " + Values.repr(v, budget));
            }
            return Values.floating(Double.parseDouble(s.replace("_", "")));
        }
        throw new EvaluationFailure("float() argument must be a string or a number, not '" + Values.typeName(v) + "'");
    }

    private JsonNode abs(JsonNode v) {
        if (Values.isInt(v)) {
            return Values.integer(Values.asBigInteger(v).abs());
        }
        if (v.isNumber()) {
            return Values.floating(Math.abs(v.doubleValue()));
        }
        throw new EvaluationFailure("bad operand type for abs(): '" + Values.typeName(v) + "'");
    }

    private JsonNode extreme(Arguments a, int direction) {
        a.allowKeywords("default");
        if (a.args.isEmpty()) {
            throw new EvaluationFailure(a.function + "() expected at least 1 argument, got 0");
        }
        List<JsonNode> items = a.args.size() == 1 ? Values.iterate(a.positional(0), budget) : a.args;
        if (items.isEmpty()) {
            JsonNode fallback = a.keyword("default");
            if (fallback != null) {
                return fallback;
            }
            throw new EvaluationFailure(a.function + "() arg is an empty sequence");
        }
        JsonNode best = items.getFirst();
        for (JsonNode item : items.subList(1, items.size())) {
            int c = Values.compare(item, best, direction > 0 ? ">" : "<", budget);
            if (c * direction > 0) {
                best = item;
            }
        }
        return best;
    }

    private JsonNode sum(Arguments a) {
        a.count(1, 2);
        a.allowKeywords("start");
        JsonNode total = a.args.size() == 2 ? a.positional(1)
                : a.keyword("start") != null ? a.keyword("start") : Values.integer(0);
        if (total.isTextual()) {
            throw new EvaluationFailure("sum() can't sum strings [use ''.join(seq) instead]");
        }
        for (JsonNode item : Values.iterate(a.positional(0), budget)) {
            total = arithmetic.binary("+", total, item);
        }
        return total;
    }

    private JsonNode range(Arguments a) {
        a.count(1, 3);
        a.allowKeywords();
        for (JsonNode arg : a.args) {
            if (!Values.isInt(arg) || !Values.fitsLong(arg)) {
                throw new EvaluationFailure("range() arguments must be integers that fit in 64 bits, not "
                        + Values.typeName(arg));
            }
        }
        long start = a.args.size() == 1 ? 0 : Values.asLong(a.positional(0));
        long stop = Values.asLong(a.positional(a.args.size() == 1 ? 0 : 1));
        long step = a.args.size() == 3 ? Values.asLong(a.positional(2)) : 1;
        if (step == 0) {
            throw new EvaluationFailure("range() arg 3 must not be zero");
        }
        BigInteger span = BigInteger.valueOf(stop).subtract(BigInteger.valueOf(start));
        BigInteger count = step > 0
                ? (span.signum() > 0 ? span.add(BigInteger.valueOf(step - 1)).divide(BigInteger.valueOf(step)) : BigInteger.ZERO)
                : (span.signum() < 0 ? span.negate().add(BigInteger.valueOf(-step - 1)).divide(BigInteger.valueOf(-step)) : BigInteger.ZERO);
        budget.allocateCollection(count.bitLength() > 62 ? Long.MAX_VALUE : count.longValue());
        ArrayNode out = JSON.arrayNode();
        for (long i = 0, v = start; i < count.longValue(); i++, v += step) {
            out.add(Values.integer(v));
        }
        return out;
    }

    private JsonNode sorted(Arguments a) {
        a.count(1, 1);
        a.allowKeywords("reverse");
        List<JsonNode> items = new ArrayList<>(Values.iterate(a.positional(0), budget));
        budget.steps((long) items.size() * (64 - Long.numberOfLeadingZeros(items.size() + 1L)));
        items.sort((x, y) -> Values.compare(x, y, "<", budget));
        JsonNode reverse = a.keyword("reverse");
        if (reverse != null && Values.truthy(reverse)) {
            // reverse a stable sort the way Python does: equal elements keep their original order
            Collections.reverse(items);
            items = stableReverseFix(items);
        }
        budget.allocateCollection(items.size());
        ArrayNode out = JSON.arrayNode(items.size());
        items.forEach(out::add);
        return out;
    }

    /** After reversing, runs of equal elements are backwards; put each run back in original order. */
    private List<JsonNode> stableReverseFix(List<JsonNode> items) {
        List<JsonNode> out = new ArrayList<>(items.size());
        int i = 0;
        while (i < items.size()) {
            int j = i + 1;
            while (j < items.size() && Values.compare(items.get(j), items.get(i), "<", budget) == 0) {
                j++;
            }
            List<JsonNode> run = new ArrayList<>(items.subList(i, j));
            Collections.reverse(run);
            out.addAll(run);
            i = j;
        }
        return out;
    }

    private JsonNode reversed(JsonNode v) {
        if (!(v.isArray() || v.isTextual() || v.isObject())) {
            throw new EvaluationFailure("'" + Values.typeName(v) + "' object is not reversible");
        }
        List<JsonNode> items = new ArrayList<>(Values.iterate(v, budget));
        Collections.reverse(items);
        ArrayNode out = JSON.arrayNode(items.size());
        items.forEach(out::add);
        return out;
    }

    private JsonNode round(Arguments a) {
        a.count(1, 2);
        a.allowKeywords("ndigits");
        JsonNode x = a.positional(0);
        JsonNode nd = a.args.size() == 2 ? a.positional(1) : a.keyword("ndigits");
        if (!Values.isNumber(x)) {
            throw new EvaluationFailure("type " + Values.typeName(x) + " doesn't define __round__ method");
        }
        if (nd != null && !nd.isNull() && !Values.isInt(nd)) {
            throw new EvaluationFailure("'" + Values.typeName(nd) + "' object cannot be interpreted as an integer");
        }
        boolean noDigits = nd == null || nd.isNull();
        int digits = noDigits ? 0 : (int) Math.max(-10_000, Math.min(10_000, Values.requireInt(nd, "ndigits")));
        if (Values.isInt(x)) {
            if (digits >= 0) {
                return Values.integer(Values.asBigInteger(x));
            }
            BigDecimal r = new BigDecimal(Values.asBigInteger(x)).setScale(digits, RoundingMode.HALF_EVEN);
            return Values.integer(r.toBigInteger());
        }
        // exact binary value, rounded half-even: round(2.675, 2) == 2.67 exactly as in Python
        BigDecimal r = new BigDecimal(x.doubleValue()).setScale(digits, RoundingMode.HALF_EVEN);
        return noDigits ? Values.integer(budget.checkInteger(r.toBigInteger())) : Values.floating(r.doubleValue());
    }

    private JsonNode list(JsonNode v) {
        List<JsonNode> items = Values.iterate(v, budget);
        budget.allocateCollection(items.size());
        ArrayNode out = JSON.arrayNode(items.size());
        items.forEach(out::add);
        return out;
    }

    private JsonNode dict(Arguments a) {
        a.count(0, 1);
        ObjectNode out = JSON.objectNode();
        if (a.args.size() == 1) {
            JsonNode source = a.positional(0);
            if (source.isObject()) {
                out.setAll((ObjectNode) source);
            } else {
                for (JsonNode pair : Values.iterate(source, budget)) {
                    List<JsonNode> kv = Values.iterate(pair, budget);
                    if (kv.size() != 2) {
                        throw new EvaluationFailure("dict() needs pairs of key and value, got a sequence of length " + kv.size());
                    }
                    out.set(Values.dictKey(kv.get(0), budget), kv.get(1));
                }
            }
        }
        a.kw.forEach(out::set);
        budget.allocateCollection(out.size());
        return out;
    }

    private JsonNode anyAll(JsonNode iterable, boolean any) {
        for (JsonNode item : Values.iterate(iterable, budget)) {
            if (Values.truthy(item) == any) {
                return Values.bool(any);
            }
        }
        return Values.bool(!any);
    }

    private JsonNode enumerate(Arguments a) {
        a.count(1, 2);
        a.allowKeywords("start");
        JsonNode startNode = a.args.size() == 2 ? a.positional(1) : a.keyword("start");
        long start = startNode == null ? 0 : Values.requireInt(startNode, "start");
        List<JsonNode> items = Values.iterate(a.positional(0), budget);
        budget.allocateCollection(items.size() * 3L);
        ArrayNode out = JSON.arrayNode(items.size());
        for (int i = 0; i < items.size(); i++) {
            out.add(JSON.arrayNode(2).add(Values.integer(start + i)).add(items.get(i)));
        }
        return out;
    }

    private JsonNode zip(Arguments a) {
        a.allowKeywords();
        List<List<JsonNode>> lists = new ArrayList<>();
        int n = Integer.MAX_VALUE;
        for (JsonNode arg : a.args) {
            List<JsonNode> items = Values.iterate(arg, budget);
            lists.add(items);
            n = Math.min(n, items.size());
        }
        ArrayNode out = JSON.arrayNode();
        if (lists.isEmpty()) {
            return out;
        }
        budget.allocateCollection((long) n * (lists.size() + 1));
        for (int i = 0; i < n; i++) {
            ArrayNode tuple = JSON.arrayNode(lists.size());
            for (List<JsonNode> items : lists) {
                tuple.add(items.get(i));
            }
            out.add(tuple);
        }
        return out;
    }
}
