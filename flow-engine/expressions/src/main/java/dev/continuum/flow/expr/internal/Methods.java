package dev.continuum.flow.expr.internal;

import static dev.continuum.flow.expr.internal.Values.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Methods of str, list and dict. Only methods that return a new value exist: values are immutable
 * here, so {@code list.append} and friends are refused with an explanation instead of silently
 * doing nothing.
 */
final class Methods {

    private static final Set<String> MUTATORS = Set.of("append", "extend", "insert", "pop", "remove", "clear",
            "sort", "reverse", "update", "setdefault", "popitem");

    private final Budget budget;

    Methods(Budget budget) {
        this.budget = budget;
    }

    JsonNode call(JsonNode target, String method, List<JsonNode> args, Map<String, JsonNode> kw) {
        if (target.isTextual()) {
            return stringMethod(target.textValue(), method, args, kw);
        }
        if (target.isArray() && !MUTATORS.contains(method)) {
            return listMethod(target, method, args);
        }
        if (target.isObject() && !MUTATORS.contains(method)) {
            return dictMethod(target, method, args);
        }
        if (MUTATORS.contains(method) && (target.isArray() || target.isObject())) {
            throw new EvaluationFailure("'" + Values.typeName(target) + "." + method
                    + "()' would modify a value, and expressions cannot modify values; build a new one instead (e.g. xs + [x])");
        }
        throw noMethod(target, method);
    }

    private static EvaluationFailure noMethod(JsonNode target, String method) {
        return new EvaluationFailure("'" + Values.typeName(target) + "' object has no method '" + method + "'");
    }

    private static void arity(String method, List<JsonNode> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            String expected = min == max ? String.valueOf(min) : min + " to " + max;
            throw new EvaluationFailure(method + "() takes " + expected + " arguments but " + args.size() + " were given");
        }
    }

    private static void noKeywords(String method, Map<String, JsonNode> kw, String... allowed) {
        for (String k : kw.keySet()) {
            if (!List.of(allowed).contains(k)) {
                throw new EvaluationFailure(method + "() got an unexpected keyword argument '" + k + "'");
            }
        }
    }

    private static String text(String method, JsonNode v) {
        if (!v.isTextual()) {
            throw new EvaluationFailure(method + "() argument must be str, not " + Values.typeName(v));
        }
        return v.textValue();
    }

    private JsonNode stringMethod(String s, String method, List<JsonNode> args, Map<String, JsonNode> kw) {
        if (!method.equals("format")) {
            noKeywords(method, kw, "sep", "maxsplit");
        }
        budget.steps(s.length() / 16);
        return switch (method) {
            case "strip", "lstrip", "rstrip" -> {
                arity(method, args, 0, 1);
                String chars = args.isEmpty() || args.getFirst().isNull() ? null : text(method, args.getFirst());
                yield Values.text(strip(s, chars, !method.equals("rstrip"), !method.equals("lstrip")));
            }
            case "lower" -> noArgs(method, args, Values.text(s.toLowerCase(java.util.Locale.ROOT)));
            case "upper" -> noArgs(method, args, Values.text(s.toUpperCase(java.util.Locale.ROOT)));
            case "title" -> noArgs(method, args, Values.text(title(s)));
            case "capitalize" -> noArgs(method, args, Values.text(s.isEmpty() ? s
                    : s.substring(0, s.offsetByCodePoints(0, 1)).toUpperCase(java.util.Locale.ROOT)
                    + s.substring(s.offsetByCodePoints(0, 1)).toLowerCase(java.util.Locale.ROOT)));
            case "startswith", "endswith" -> {
                arity(method, args, 1, 1);
                JsonNode prefixes = args.getFirst();
                List<JsonNode> options = prefixes.isArray() ? Values.iterate(prefixes, budget) : List.of(prefixes);
                boolean match = false;
                for (JsonNode option : options) {
                    String p = text(method, option);
                    match |= method.equals("startswith") ? s.startsWith(p) : s.endsWith(p);
                }
                yield Values.bool(match);
            }
            case "replace" -> {
                arity(method, args, 2, 3);
                String old = text(method, args.get(0));
                String replacement = text(method, args.get(1));
                long count = args.size() == 3 ? Values.requireInt(args.get(2), "count") : -1;
                yield Values.text(replace(s, old, replacement, count));
            }
            case "split", "rsplit" -> split(s, method, args, kw);
            case "splitlines" -> {
                arity(method, args, 0, 0);
                ArrayNode out = JSON.arrayNode();
                for (String line : s.split("\r\n|[\n\r\u000b\f\u001c\u001d\u001e\u0085\u2028\u2029]", -1)) {
                    out.add(line);
                }
                if (!out.isEmpty() && out.get(out.size() - 1).textValue().isEmpty()) {
                    out.remove(out.size() - 1);
                }
                yield out;
            }
            case "join" -> {
                arity(method, args, 1, 1);
                List<JsonNode> parts = Values.iterate(args.getFirst(), budget);
                StringBuilder out = new StringBuilder();
                for (int i = 0; i < parts.size(); i++) {
                    if (!parts.get(i).isTextual()) {
                        throw new EvaluationFailure("sequence item " + i + ": expected str instance, "
                                + Values.typeName(parts.get(i)) + " found");
                    }
                    if (i > 0) {
                        out.append(s);
                    }
                    out.append(parts.get(i).textValue());
                    budget.checkStringLength(out.length());
                }
                budget.allocateString(out.length());
                yield Values.text(out.toString());
            }
            case "find", "rfind", "index", "rindex", "count" -> search(s, method, args);
            case "format" -> {
                String formatted = Formatting.format(s, args, kw, budget);
                yield Values.text(formatted);
            }
            case "zfill" -> {
                arity(method, args, 1, 1);
                long width = Values.requireInt(args.getFirst(), "width");
                budget.allocateString(width);
                int len = Values.codePointLength(s);
                if (width <= len) {
                    yield Values.text(s);
                }
                boolean signed = s.startsWith("+") || s.startsWith("-");
                String zeros = "0".repeat((int) (width - len));
                yield Values.text(signed ? s.charAt(0) + zeros + s.substring(1) : zeros + s);
            }
            case "isdigit", "isnumeric", "isdecimal" -> noArgs(method, args,
                    Values.bool(!s.isEmpty() && s.codePoints().allMatch(Character::isDigit)));
            case "isalpha" -> noArgs(method, args, Values.bool(!s.isEmpty() && s.codePoints().allMatch(Character::isLetter)));
            case "isalnum" -> noArgs(method, args,
                    Values.bool(!s.isEmpty() && s.codePoints().allMatch(Character::isLetterOrDigit)));
            case "isspace" -> noArgs(method, args, Values.bool(!s.isEmpty() && s.codePoints().allMatch(Methods::isSpace)));
            case "islower" -> noArgs(method, args, Values.bool(s.codePoints().anyMatch(Character::isLowerCase)
                    && s.codePoints().noneMatch(Character::isUpperCase)));
            case "isupper" -> noArgs(method, args, Values.bool(s.codePoints().anyMatch(Character::isUpperCase)
                    && s.codePoints().noneMatch(Character::isLowerCase)));
            case "removeprefix" -> {
                arity(method, args, 1, 1);
                String p = text(method, args.getFirst());
                yield Values.text(s.startsWith(p) ? s.substring(p.length()) : s);
            }
            case "removesuffix" -> {
                arity(method, args, 1, 1);
                String p = text(method, args.getFirst());
                yield Values.text(!p.isEmpty() && s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s);
            }
            case "partition", "rpartition" -> {
                arity(method, args, 1, 1);
                String sep = text(method, args.getFirst());
                if (sep.isEmpty()) {
                    throw new EvaluationFailure("empty separator");
                }
                int at = method.equals("partition") ? s.indexOf(sep) : s.lastIndexOf(sep);
                if (at < 0) {
                    yield method.equals("partition") ? JSON.arrayNode().add(s).add("").add("")
                            : JSON.arrayNode().add("").add("").add(s);
                }
                yield JSON.arrayNode().add(s.substring(0, at)).add(sep).add(s.substring(at + sep.length()));
            }
            default -> throw noMethod(Values.text(s), method);
        };
    }

    private static JsonNode noArgs(String method, List<JsonNode> args, JsonNode result) {
        arity(method, args, 0, 0);
        return result;
    }

    static boolean isSpace(int c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == 0x85;
    }

    private static String strip(String s, String chars, boolean left, boolean right) {
        int start = 0;
        int end = s.length();
        while (left && start < end && (chars == null ? isSpace(s.charAt(start)) : chars.indexOf(s.charAt(start)) >= 0)) {
            start++;
        }
        while (right && end > start && (chars == null ? isSpace(s.charAt(end - 1)) : chars.indexOf(s.charAt(end - 1)) >= 0)) {
            end--;
        }
        return s.substring(start, end);
    }

    private static String title(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean previousCased = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            boolean cased = Character.isLetter(cp);
            out.appendCodePoint(cased ? (previousCased ? Character.toLowerCase(cp) : Character.toTitleCase(cp)) : cp);
            previousCased = cased;
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    private String replace(String s, String old, String replacement, long count) {
        if (count < 0) {
            count = Long.MAX_VALUE;
        }
        // bound the result before building it: every occurrence may grow the string
        long occurrences = old.isEmpty() ? Values.codePointLength(s) + 1L : countOccurrences(s, old);
        long growth = Math.min(occurrences, count) * (replacement.length() - (long) old.length());
        budget.allocateString(s.length() + Math.max(0, growth));
        StringBuilder out = new StringBuilder();
        if (old.isEmpty()) {
            long done = 0;
            int i = 0;
            while (i <= s.length()) {
                if (done < count) {
                    out.append(replacement);
                    done++;
                }
                if (i == s.length()) {
                    break;
                }
                int cp = s.codePointAt(i);
                out.appendCodePoint(cp);
                i += Character.charCount(cp);
            }
            return out.toString();
        }
        int from = 0;
        long done = 0;
        while (done < count) {
            int at = s.indexOf(old, from);
            if (at < 0) {
                break;
            }
            out.append(s, from, at).append(replacement);
            from = at + old.length();
            done++;
        }
        out.append(s, from, s.length());
        return out.toString();
    }

    private static long countOccurrences(String s, String sub) {
        long n = 0;
        for (int at = s.indexOf(sub); at >= 0; at = s.indexOf(sub, at + sub.length())) {
            n++;
        }
        return n;
    }

    private JsonNode split(String s, String method, List<JsonNode> args, Map<String, JsonNode> kw) {
        arity(method, args, 0, 2);
        JsonNode sepNode = args.size() >= 1 ? args.get(0) : kw.get("sep");
        JsonNode maxNode = args.size() == 2 ? args.get(1) : kw.get("maxsplit");
        long maxsplit = maxNode == null ? -1 : Values.requireInt(maxNode, "maxsplit");
        if (maxsplit < 0) {
            maxsplit = Long.MAX_VALUE;
        }
        boolean fromRight = method.equals("rsplit");
        List<String> parts = new ArrayList<>();
        if (sepNode == null || sepNode.isNull()) {
            splitWhitespace(s, maxsplit, fromRight, parts);
        } else {
            String sep = text(method, sepNode);
            if (sep.isEmpty()) {
                throw new EvaluationFailure("empty separator");
            }
            if (fromRight) {
                int end = s.length();
                long done = 0;
                while (done < maxsplit) {
                    int at = end - sep.length() < 0 ? -1 : s.lastIndexOf(sep, end - sep.length());
                    if (at < 0) {
                        break;
                    }
                    parts.addFirst(s.substring(at + sep.length(), end));
                    end = at;
                    done++;
                }
                parts.addFirst(s.substring(0, end));
            } else {
                int from = 0;
                long done = 0;
                int at;
                while (done < maxsplit && (at = s.indexOf(sep, from)) >= 0) {
                    parts.add(s.substring(from, at));
                    from = at + sep.length();
                    done++;
                }
                parts.add(s.substring(from));
            }
        }
        budget.allocateCollection(parts.size());
        ArrayNode out = JSON.arrayNode(parts.size());
        parts.forEach(out::add);
        return out;
    }

    private static void splitWhitespace(String s, long maxsplit, boolean fromRight, List<String> parts) {
        if (fromRight) {
            int end = s.length();
            long done = 0;
            while (true) {
                while (end > 0 && isSpace(s.charAt(end - 1))) {
                    end--;
                }
                if (end == 0) {
                    return;
                }
                if (done == maxsplit) {
                    parts.addFirst(s.substring(0, end));
                    return;
                }
                int start = end;
                while (start > 0 && !isSpace(s.charAt(start - 1))) {
                    start--;
                }
                parts.addFirst(s.substring(start, end));
                done++;
                end = start;
            }
        }
        int start = 0;
        long done = 0;
        while (true) {
            while (start < s.length() && isSpace(s.charAt(start))) {
                start++;
            }
            if (start == s.length()) {
                return;
            }
            if (done == maxsplit) {
                parts.add(s.substring(start));
                return;
            }
            int end = start;
            while (end < s.length() && !isSpace(s.charAt(end))) {
                end++;
            }
            parts.add(s.substring(start, end));
            done++;
            start = end;
        }
    }

    private JsonNode search(String s, String method, List<JsonNode> args) {
        arity(method, args, 1, 3);
        String sub = text(method, args.getFirst());
        int[] cps = s.codePoints().toArray();
        int len = cps.length;
        int start = args.size() >= 2 && !args.get(1).isNull() ? adjust(Values.requireInt(args.get(1), "start"), len) : 0;
        int end = args.size() == 3 && !args.get(2).isNull() ? adjust(Values.requireInt(args.get(2), "end"), len) : len;
        if (start > end) {
            return switch (method) {
                case "count" -> Values.integer(0);
                case "index", "rindex" -> throw new EvaluationFailure("substring not found");
                default -> Values.integer(-1);
            };
        }
        String window = new String(cps, start, end - start);
        if (method.equals("count")) {
            return Values.integer(sub.isEmpty() ? Values.codePointLength(window) + 1 : countOccurrences(window, sub));
        }
        int at = method.startsWith("r") ? window.lastIndexOf(sub) : window.indexOf(sub);
        if (at < 0) {
            if (method.endsWith("index")) {
                throw new EvaluationFailure("substring not found");
            }
            return Values.integer(-1);
        }
        return Values.integer(start + window.codePointCount(0, at));
    }

    private static int adjust(long index, int length) {
        if (index < 0) {
            index = Math.max(0, index + length);
        }
        return (int) Math.min(index, length);
    }

    private JsonNode listMethod(JsonNode list, String method, List<JsonNode> args) {
        return switch (method) {
            case "index" -> {
                arity(method, args, 1, 1);
                for (int i = 0; i < list.size(); i++) {
                    if (Values.pyEquals(list.get(i), args.getFirst(), budget)) {
                        yield Values.integer(i);
                    }
                }
                throw new EvaluationFailure(Values.repr(args.getFirst(), budget) + " is not in list");
            }
            case "count" -> {
                arity(method, args, 1, 1);
                int n = 0;
                for (JsonNode item : list) {
                    if (Values.pyEquals(item, args.getFirst(), budget)) {
                        n++;
                    }
                }
                yield Values.integer(n);
            }
            case "copy" -> noArgs(method, args, list); // values are never mutated, so sharing is a copy
            default -> throw noMethod(list, method);
        };
    }

    private JsonNode dictMethod(JsonNode dict, String method, List<JsonNode> args) {
        budget.steps(dict.size());
        return switch (method) {
            case "get" -> {
                arity(method, args, 1, 2);
                JsonNode key = args.getFirst();
                JsonNode value = key.isContainerNode() ? null : dict.get(Values.dictKey(key, budget));
                yield value != null ? value : (args.size() == 2 ? args.get(1) : Values.none());
            }
            case "keys" -> {
                arity(method, args, 0, 0);
                ArrayNode out = JSON.arrayNode(dict.size());
                dict.fieldNames().forEachRemaining(out::add);
                yield out;
            }
            case "values" -> {
                arity(method, args, 0, 0);
                ArrayNode out = JSON.arrayNode(dict.size());
                dict.elements().forEachRemaining(out::add);
                yield out;
            }
            case "items" -> {
                arity(method, args, 0, 0);
                budget.allocateCollection(dict.size() * 3L);
                ArrayNode out = JSON.arrayNode(dict.size());
                for (Iterator<Map.Entry<String, JsonNode>> it = dict.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    out.add(JSON.arrayNode(2).add(e.getKey()).add(e.getValue()));
                }
                yield out;
            }
            case "copy" -> noArgs(method, args, dict);
            default -> throw noMethod(dict, method);
        };
    }
}
