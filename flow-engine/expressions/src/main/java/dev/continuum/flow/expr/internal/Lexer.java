package dev.continuum.flow.expr.internal;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Splits expression text into tokens, following Python's lexical rules for the subset we accept. */
final class Lexer {

    private static final String[] OPERATORS = {
        "**", "//", "==", "!=", "<=", ">=", "<<", ">>",
        "+", "-", "*", "/", "%", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", "=", "|", "&", "^", "~"
    };

    private final String src;
    private int pos;

    private Lexer(String src) {
        this.src = src;
    }

    static List<Token> tokenize(String src) {
        return new Lexer(src).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipWhitespace();
            if (pos >= src.length()) {
                tokens.add(new Token(Token.Kind.END, "", null, pos));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private void skipWhitespace() {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                pos++;
            } else if (c == '\\' && pos + 1 < src.length() && src.charAt(pos + 1) == '\n') {
                pos += 2; // explicit line continuation
            } else {
                return;
            }
        }
    }

    private Token next() {
        int start = pos;
        char c = src.charAt(pos);
        if (c == '`') {
            int end = src.indexOf('`', pos + 1);
            if (end < 0) {
                throw new EvaluationFailure("unterminated back-quoted JSONPath", start);
            }
            pos = end + 1;
            return new Token(Token.Kind.JSONPATH, src.substring(start, pos), src.substring(start + 1, end).strip(), start);
        }
        if (Character.isDigit(c) || (c == '.' && pos + 1 < src.length() && Character.isDigit(src.charAt(pos + 1)))) {
            return number();
        }
        if (isIdentifierStart(c)) {
            while (pos < src.length() && isIdentifierPart(src.charAt(pos))) {
                pos++;
            }
            String word = src.substring(start, pos);
            if (pos < src.length() && (src.charAt(pos) == '\'' || src.charAt(pos) == '"')) {
                String prefix = word.toLowerCase();
                if (prefix.equals("r")) {
                    return string(start, true);
                }
                if (prefix.contains("f")) {
                    throw new EvaluationFailure("f-strings are not supported; use str.format() or +", start);
                }
                if (prefix.contains("b")) {
                    throw new EvaluationFailure("byte strings are not supported", start);
                }
                if (prefix.equals("u")) {
                    return string(start, false);
                }
            }
            return new Token(Token.Kind.NAME, word, null, start);
        }
        if (c == '\'' || c == '"') {
            return string(start, false);
        }
        for (String op : OPERATORS) {
            if (src.startsWith(op, pos)) {
                pos += op.length();
                return new Token(Token.Kind.OP, op, null, start);
            }
        }
        throw new EvaluationFailure("unexpected character '" + c + "'", start);
    }

    private static boolean isIdentifierStart(char c) {
        return c == '_' || Character.isLetter(c);
    }

    private static boolean isIdentifierPart(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    private Token number() {
        int start = pos;
        if (src.charAt(pos) == '0' && pos + 1 < src.length() && "xXoObB".indexOf(src.charAt(pos + 1)) >= 0) {
            int radix = switch (Character.toLowerCase(src.charAt(pos + 1))) {
                case 'x' -> 16;
                case 'o' -> 8;
                default -> 2;
            };
            pos += 2;
            int digitsStart = pos;
            while (pos < src.length() && (Character.digit(src.charAt(pos), radix) >= 0 || src.charAt(pos) == '_')) {
                pos++;
            }
            String digits = src.substring(digitsStart, pos).replace("_", "");
            if (digits.isEmpty()) {
                throw new EvaluationFailure("invalid number literal", start);
            }
            return new Token(Token.Kind.INT, src.substring(start, pos), new BigInteger(digits, radix), start);
        }
        boolean isFloat = false;
        digits();
        if (pos < src.length() && src.charAt(pos) == '.') {
            isFloat = true;
            pos++;
            digits();
        }
        if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
            int save = pos;
            pos++;
            if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                isFloat = true;
                digits();
            } else {
                pos = save;
            }
        }
        if (pos < src.length() && isIdentifierStart(src.charAt(pos))) {
            throw new EvaluationFailure("invalid number literal", start);
        }
        String text = src.substring(start, pos);
        String clean = text.replace("_", "");
        if (isFloat) {
            double d = Double.parseDouble(clean);
            if (Double.isInfinite(d)) {
                throw new EvaluationFailure("float literal is out of range", start);
            }
            return new Token(Token.Kind.FLOAT, text, d, start);
        }
        if (clean.length() > 1 && clean.charAt(0) == '0' && !clean.chars().allMatch(ch -> ch == '0')) {
            throw new EvaluationFailure("leading zeros in integer literals are not permitted", start);
        }
        if (clean.length() > 1300) {
            throw new EvaluationFailure("integer literal is too large", start);
        }
        return new Token(Token.Kind.INT, text, new BigInteger(clean), start);
    }

    private void digits() {
        while (pos < src.length() && (Character.isDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
            pos++;
        }
    }

    private Token string(int start, boolean raw) {
        char quote = src.charAt(pos);
        boolean triple = src.startsWith(String.valueOf(quote).repeat(3), pos);
        pos += triple ? 3 : 1;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= src.length()) {
                throw new EvaluationFailure("unterminated string literal", start);
            }
            char c = src.charAt(pos);
            if (triple ? src.startsWith(String.valueOf(quote).repeat(3), pos) : c == quote) {
                pos += triple ? 3 : 1;
                return new Token(Token.Kind.STRING, src.substring(start, pos), out.toString(), start);
            }
            if (c == '\n' && !triple) {
                throw new EvaluationFailure("unterminated string literal", start);
            }
            if (c == '\\' && pos + 1 < src.length()) {
                if (raw) {
                    out.append(c).append(src.charAt(pos + 1));
                    pos += 2;
                } else {
                    escape(out);
                }
                continue;
            }
            out.append(c);
            pos++;
        }
    }

    private void escape(StringBuilder out) {
        int escStart = pos;
        char e = src.charAt(pos + 1);
        pos += 2;
        switch (e) {
            case '\n' -> { }
            case '\\' -> out.append('\\');
            case '\'' -> out.append('\'');
            case '"' -> out.append('"');
            case 'n' -> out.append('\n');
            case 't' -> out.append('\t');
            case 'r' -> out.append('\r');
            case 'a' -> out.append('\u0007');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'v' -> out.append('\u000b');
            case '0', '1', '2', '3', '4', '5', '6', '7' -> {
                int end = pos - 1;
                while (end < src.length() && end < pos + 2 && src.charAt(end) >= '0' && src.charAt(end) <= '7') {
                    end++;
                }
                out.append((char) Integer.parseInt(src.substring(pos - 1, end), 8));
                pos = end;
            }
            case 'x' -> out.appendCodePoint(hex(escStart, 2));
            case 'u' -> out.appendCodePoint(hex(escStart, 4));
            case 'U' -> out.appendCodePoint(hex(escStart, 8));
            default -> out.append('\\').append(e); // Python keeps unknown escapes verbatim
        }
    }

    private int hex(int escStart, int digits) {
        if (pos + digits > src.length()) {
            throw new EvaluationFailure("truncated escape sequence in string literal", escStart);
        }
        try {
            int cp = Integer.parseInt(src.substring(pos, pos + digits), 16);
            if (!Character.isValidCodePoint(cp)) {
                throw new NumberFormatException();
            }
            pos += digits;
            return cp;
        } catch (NumberFormatException e) {
            throw new EvaluationFailure("invalid escape sequence in string literal", escStart);
        }
    }
}
