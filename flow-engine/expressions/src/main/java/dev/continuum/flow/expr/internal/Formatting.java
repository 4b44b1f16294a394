package dev.continuum.flow.expr.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/** {@code str.format} and {@code str % args}, with the common part of Python's format-spec language. */
final class Formatting {

    private Formatting() {
    }

    /** {@code template.format(*args, **kwargs)}: fields {}, {0}, {name}, {name.key}, {0[1]} with a spec. */
    static String format(String template, List<JsonNode> args, Map<String, JsonNode> kwargs, Budget budget) {
        StringBuilder out = new StringBuilder();
        int auto = 0;
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '{' && i + 1 < template.length() && template.charAt(i + 1) == '{') {
                out.append('{');
                i += 2;
                continue;
            }
            if (c == '}' && i + 1 < template.length() && template.charAt(i + 1) == '}') {
                out.append('}');
                i += 2;
                continue;
            }
            if (c == '}') {
                throw new EvaluationFailure("single '}' encountered in format string");
            }
            if (c != '{') {
                out.append(c);
                i++;
                continue;
            }
            int close = template.indexOf('}', i);
            if (close < 0) {
                throw new EvaluationFailure("single '{' encountered in format string");
            }
            String field = template.substring(i + 1, close);
            i = close + 1;
            String spec = "";
            int colon = field.indexOf(':');
            if (colon >= 0) {
                spec = field.substring(colon + 1);
                field = field.substring(0, colon);
            }
            boolean repr = false;
            int bang = field.indexOf('!');
            if (bang >= 0) {
                repr = field.substring(bang + 1).equals("r");
                field = field.substring(0, bang);
            }
            int end = 0;
            while (end < field.length() && field.charAt(end) != '.' && field.charAt(end) != '[') {
                end++;
            }
            String head = field.substring(0, end);
            JsonNode value;
            if (head.isEmpty()) {
                value = positional(args, auto++);
            } else if (head.chars().allMatch(Character::isDigit)) {
                value = positional(args, Integer.parseInt(head));
            } else {
                value = kwargs.get(head);
                if (value == null) {
                    throw new EvaluationFailure("format string refers to missing keyword argument '" + head + "'");
                }
            }
            value = walkField(value, field.substring(end));
            String piece = repr ? Values.repr(value, budget) : formatValue(value, spec, budget);
            out.append(piece);
            budget.checkStringLength(out.length());
        }
        budget.allocateString(out.length());
        return out.toString();
    }

    private static JsonNode positional(List<JsonNode> args, int index) {
        if (index >= args.size()) {
            throw new EvaluationFailure("format string refers to positional argument " + index
                    + " but only " + args.size() + " were given");
        }
        return args.get(index);
    }

    private static JsonNode walkField(JsonNode value, String rest) {
        int i = 0;
        while (i < rest.length()) {
            String key;
            if (rest.charAt(i) == '.') {
                int end = i + 1;
                while (end < rest.length() && rest.charAt(end) != '.' && rest.charAt(end) != '[') {
                    end++;
                }
                key = rest.substring(i + 1, end);
                i = end;
            } else {
                int end = rest.indexOf(']', i);
                if (end < 0) {
                    throw new EvaluationFailure("missing ']' in format string");
                }
                key = rest.substring(i + 1, end);
                i = end + 1;
            }
            JsonNode next = value.isArray() && key.chars().allMatch(Character::isDigit) && !key.isEmpty()
                    ? value.get(Integer.parseInt(key)) : value.get(key);
            if (next == null) {
                throw new EvaluationFailure("format string field '" + key + "' not found");
            }
            value = next;
        }
        return value;
    }

    /** Python's {@code format(value, spec)}: [[fill]align][sign][0][width][,|_][.precision][type]. */
    static String formatValue(JsonNode value, String spec, Budget budget) {
        if (spec.isEmpty()) {
            return Values.str(value, budget);
        }
        int i = 0;
        char fill = ' ';
        char align = 0;
        if (spec.length() >= 2 && "<>^=".indexOf(spec.charAt(1)) >= 0) {
            fill = spec.charAt(0);
            align = spec.charAt(1);
            i = 2;
        } else if ("<>^=".indexOf(spec.charAt(0)) >= 0) {
            align = spec.charAt(0);
            i = 1;
        }
        char sign = '-';
        if (i < spec.length() && "+- ".indexOf(spec.charAt(i)) >= 0) {
            sign = spec.charAt(i++);
        }
        if (i < spec.length() && spec.charAt(i) == '0') {
            if (align == 0) {
                fill = '0';
                align = '=';
            }
            i++;
        }
        int width = 0;
        while (i < spec.length() && Character.isDigit(spec.charAt(i))) {
            width = width * 10 + (spec.charAt(i++) - '0');
            budget.checkStringLength(width);
        }
        char grouping = 0;
        if (i < spec.length() && (spec.charAt(i) == ',' || spec.charAt(i) == '_')) {
            grouping = spec.charAt(i++);
        }
        int precision = -1;
        if (i < spec.length() && spec.charAt(i) == '.') {
            i++;
            precision = 0;
            while (i < spec.length() && Character.isDigit(spec.charAt(i))) {
                precision = precision * 10 + (spec.charAt(i++) - '0');
                if (precision > 1000) {
                    throw new EvaluationFailure("format precision is too large");
                }
            }
        }
        char type = i < spec.length() ? spec.charAt(i++) : 0;
        if (i != spec.length()) {
            throw new EvaluationFailure("invalid format specifier '" + spec + "'");
        }
        String body;
        boolean negative = false;
        boolean numeric = Values.isNumber(value) && type != 's';
        if (numeric) {
            negative = Values.isInt(value) ? Values.asBigInteger(value).signum() < 0 : value.doubleValue() < 0;
            body = formatNumber(value, type, precision, grouping);
        } else {
            if (type != 0 && type != 's') {
                throw new EvaluationFailure("unknown format code '" + type + "' for object of type '"
                        + Values.typeName(value) + "'");
            }
            body = Values.str(value, budget);
            if (precision >= 0 && body.length() > precision) {
                body = body.substring(0, precision);
            }
        }
        String signText = !numeric ? "" : negative ? "-" : sign == '+' ? "+" : sign == ' ' ? " " : "";
        if (align == 0) {
            align = numeric ? '>' : '<';
        }
        int padding = width - signText.length() - body.length();
        if (padding <= 0) {
            return signText + body;
        }
        String pad = String.valueOf(fill).repeat(padding);
        return switch (align) {
            case '<' -> signText + body + pad;
            case '^' -> String.valueOf(fill).repeat(padding / 2) + signText + body
                    + String.valueOf(fill).repeat(padding - padding / 2);
            case '=' -> signText + pad + body;
            default -> pad + signText + body;
        };
    }

    /** Formats the absolute value; the caller adds the sign. */
    private static String formatNumber(JsonNode value, char type, int precision, char grouping) {
        boolean isInt = Values.isInt(value);
        switch (type) {
            case 'd', 'n' -> {
                if (!isInt) {
                    throw new EvaluationFailure("unknown format code 'd' for object of type 'float'");
                }
                return group(Values.asBigInteger(value).abs().toString(), grouping);
            }
            case 'x', 'X', 'o', 'b' -> {
                if (!isInt) {
                    throw new EvaluationFailure("unknown format code '" + type + "' for object of type 'float'");
                }
                int radix = type == 'o' ? 8 : type == 'b' ? 2 : 16;
                String s = Values.asBigInteger(value).abs().toString(radix);
                return type == 'X' ? s.toUpperCase() : s;
            }
            case 'f', 'F', '%' -> {
                BigDecimal d = exact(value);
                if (type == '%') {
                    d = d.movePointRight(2);
                }
                String s = d.abs().setScale(precision < 0 ? 6 : precision, RoundingMode.HALF_EVEN).toPlainString();
                return groupFixed(s, grouping) + (type == '%' ? "%" : "");
            }
            case 'e', 'E' -> {
                String s = scientific(exact(value).abs(), precision < 0 ? 6 : precision);
                return type == 'E' ? s.toUpperCase() : s;
            }
            case 'g', 'G' -> {
                String s = general(exact(value).abs(), precision < 0 ? 6 : Math.max(precision, 1));
                return type == 'G' ? s.toUpperCase() : s;
            }
            case 0 -> {
                if (isInt) {
                    return group(Values.asBigInteger(value).abs().toString(), grouping);
                }
                if (precision >= 0) {
                    return general(exact(value).abs(), Math.max(precision, 1));
                }
                String s = Values.formatFloat(Math.abs(value.doubleValue()));
                return groupFixed(s, grouping);
            }
            default -> throw new EvaluationFailure("unknown format code '" + type + "' for a number");
        }
    }

    private static BigDecimal exact(JsonNode value) {
        if (Values.isInt(value)) {
            return new BigDecimal(Values.asBigInteger(value));
        }
        double d = value.doubleValue();
        if (!Double.isFinite(d)) {
            throw new EvaluationFailure("cannot format a non-finite float");
        }
        return new BigDecimal(d);
    }

    private static String scientific(BigDecimal abs, int precision) {
        if (abs.signum() == 0) {
            return "0" + (precision > 0 ? "." + "0".repeat(precision) : "") + "e+00";
        }
        BigDecimal rounded = abs.round(new java.math.MathContext(precision + 1, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        BigInteger unscaled = rounded.movePointLeft(exponent).setScale(precision, RoundingMode.HALF_EVEN)
                .unscaledValue();
        String digits = unscaled.toString();
        String mantissa = precision > 0 ? digits.charAt(0) + "." + digits.substring(1) : digits;
        int e = Math.abs(exponent);
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + (e < 10 ? "0" + e : String.valueOf(e));
    }

    private static String general(BigDecimal abs, int precision) {
        if (abs.signum() == 0) {
            return "0";
        }
        BigDecimal rounded = abs.round(new java.math.MathContext(precision, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= precision) {
            String s = scientific(abs, precision - 1);
            int e = s.indexOf('e');
            String mantissa = s.substring(0, e);
            if (mantissa.contains(".")) {
                mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
            }
            return mantissa + s.substring(e);
        }
        String s = rounded.setScale(Math.max(precision - 1 - exponent, 0), RoundingMode.HALF_EVEN).toPlainString();
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }

    private static String group(String digits, char grouping) {
        if (grouping == 0 || digits.length() <= 3) {
            return digits;
        }
        StringBuilder out = new StringBuilder();
        int first = digits.length() % 3;
        if (first > 0) {
            out.append(digits, 0, first);
        }
        for (int i = first; i < digits.length(); i += 3) {
            if (!out.isEmpty()) {
                out.append(grouping);
            }
            out.append(digits, i, i + 3);
        }
        return out.toString();
    }

    private static String groupFixed(String s, char grouping) {
        int dot = s.indexOf('.');
        int end = dot < 0 ? s.length() : dot;
        if (s.indexOf('e') >= 0) {
            return s;
        }
        return group(s.substring(0, end), grouping) + s.substring(end);
    }

    /** {@code template % args}: %s %r %d %i %f %e %g %x %o %% with flags, width and precision. */
    static String percent(String template, JsonNode args, Budget budget) {
        List<JsonNode> values = args.isArray() ? Values.iterate(args, budget) : List.of(args);
        boolean mapping = args.isObject();
        StringBuilder out = new StringBuilder();
        int next = 0;
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i++);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (i >= template.length()) {
                throw new EvaluationFailure("incomplete format in '%' string");
            }
            JsonNode value = null;
            if (template.charAt(i) == '(') {
                int close = template.indexOf(')', i);
                if (close < 0 || !mapping) {
                    throw new EvaluationFailure("format requires a mapping");
                }
                value = args.get(template.substring(i + 1, close));
                if (value == null) {
                    throw new EvaluationFailure("key '" + template.substring(i + 1, close) + "' not found for '%' format");
                }
                i = close + 1;
            }
            StringBuilder spec = new StringBuilder();
            char align = 0;
            while (i < template.length() && "-+ 0#".indexOf(template.charAt(i)) >= 0) {
                char flag = template.charAt(i++);
                if (flag == '-') {
                    align = '<';
                } else if (flag == '0' && align == 0) {
                    align = '0';
                } else if (flag == '+' || flag == ' ') {
                    spec.append(flag);
                }
            }
            StringBuilder widthAndPrecision = new StringBuilder();
            while (i < template.length() && (Character.isDigit(template.charAt(i)) || template.charAt(i) == '.')) {
                widthAndPrecision.append(template.charAt(i++));
            }
            if (i >= template.length()) {
                throw new EvaluationFailure("incomplete format in '%' string");
            }
            char type = template.charAt(i++);
            if (type == '%') {
                out.append('%');
                continue;
            }
            if (value == null) {
                if (mapping) {
                    value = args;
                } else {
                    if (next >= values.size()) {
                        throw new EvaluationFailure("not enough arguments for format string");
                    }
                    value = values.get(next++);
                }
            }
            String fullSpec = (align == '<' ? "<" : "") + spec + (align == '0' ? "0" : "") + widthAndPrecision;
            String piece = switch (type) {
                case 's' -> formatValue(Values.text(Values.str(value, budget)), fullSpec, budget);
                case 'r' -> formatValue(Values.text(Values.repr(value, budget)), fullSpec, budget);
                case 'd', 'i', 'u' -> {
                    if (!Values.isNumber(value)) {
                        throw new EvaluationFailure("%d format: a number is required, not " + Values.typeName(value));
                    }
                    JsonNode whole = Values.isInt(value) ? value
                            : Values.integer(BigDecimal.valueOf(value.doubleValue()).toBigInteger());
                    yield formatValue(whole, fullSpec + "d", budget);
                }
                case 'f', 'F', 'e', 'E', 'g', 'G', 'x', 'X', 'o' -> {
                    if (!Values.isNumber(value)) {
                        throw new EvaluationFailure("%" + type + " format: a number is required, not "
                                + Values.typeName(value));
                    }
                    yield formatValue(value, fullSpec + type, budget);
                }
                default -> throw new EvaluationFailure("unsupported format character '" + type + "'");
            };
            out.append(piece);
            budget.checkStringLength(out.length());
        }
        budget.allocateString(out.length());
        if (!mapping && next < values.size()) {
            throw new EvaluationFailure("not all arguments converted during string formatting");
        }
        return out.toString();
    }
}
