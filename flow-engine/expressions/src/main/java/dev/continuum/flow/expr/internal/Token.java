package dev.continuum.flow.expr.internal;

/** One lexical token; {@code value} holds the decoded literal for numbers and strings. */
record Token(Kind kind, String text, Object value, int position) {

    enum Kind { NAME, INT, FLOAT, STRING, JSONPATH, OP, END }

    boolean is(Kind k, String t) {
        return kind == k && text.equals(t);
    }

    boolean isOp(String t) {
        return is(Kind.OP, t);
    }

    boolean isKeyword(String t) {
        return is(Kind.NAME, t);
    }
}
