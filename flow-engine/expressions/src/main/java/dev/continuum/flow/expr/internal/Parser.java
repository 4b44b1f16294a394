package dev.continuum.flow.expr.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.flow.expr.internal.Node.Clause;
import dev.continuum.flow.expr.internal.Node.Keyword;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser for the Python expression subset, with Python's operator precedence:
 * conditional, or, and, not, comparisons, + -, * / // %, unary - +, **, then primaries with
 * attribute, subscript, slice and call trailers.
 */
final class Parser {

    private static final Set<String> COMPARISON_OPS = Set.of("==", "!=", "<", ">", "<=", ">=");
    private static final Set<String> UNSUPPORTED_OPS = Set.of("|", "&", "^", "<<", ">>", "~");
    private static final Set<String> UNSUPPORTED_KEYWORDS =
            Set.of("lambda", "yield", "await", "import", "def", "class", "del", "global", "nonlocal", "assert");

    private final List<Token> tokens;
    private final int maxNesting;
    private int index;
    private int depth;

    private Parser(List<Token> tokens, int maxNesting) {
        this.tokens = tokens;
        this.maxNesting = maxNesting;
    }

    /** Parses a whole expression; throws {@link EvaluationFailure} with the position of the problem. */
    static Node parse(String source, int maxNesting) {
        Parser parser = new Parser(Lexer.tokenize(source), maxNesting);
        Node node = parser.topLevel();
        Token rest = parser.peek();
        if (rest.kind() != Token.Kind.END) {
            throw parser.unexpected(rest);
        }
        return node;
    }

    private Node topLevel() {
        Token first = peek();
        if (first.kind() == Token.Kind.END) {
            throw new EvaluationFailure("expression is empty", 0);
        }
        Node node = expression();
        if (!peek().isOp(",")) {
            return node;
        }
        // a bare tuple "a, b" evaluates to a list, as a Python tuple serialises to a JSON array
        List<Node> items = new ArrayList<>(List.of(node));
        while (accept(",")) {
            if (peek().kind() == Token.Kind.END) {
                break;
            }
            items.add(expression());
        }
        return new Node.ListDisplay(items, first.position());
    }

    private Node expression() {
        enter();
        try {
            Token start = peek();
            for (String keyword : UNSUPPORTED_KEYWORDS) {
                if (start.isKeyword(keyword)) {
                    throw new EvaluationFailure("'" + keyword + "' is not supported in expressions", start.position());
                }
            }
            Node body = orTest();
            if (peek().isKeyword("if")) {
                Token ifToken = advance();
                Node test = orTest();
                expectKeyword("else");
                Node orElse = expression();
                return new Node.Conditional(test, body, orElse, ifToken.position());
            }
            return body;
        } finally {
            depth--;
        }
    }

    private Node orTest() {
        Node left = andTest();
        while (peek().isKeyword("or")) {
            Token op = advance();
            left = new Node.Logical("or", left, andTest(), op.position());
        }
        return left;
    }

    private Node andTest() {
        Node left = notTest();
        while (peek().isKeyword("and")) {
            Token op = advance();
            left = new Node.Logical("and", left, notTest(), op.position());
        }
        return left;
    }

    private Node notTest() {
        if (peek().isKeyword("not")) {
            Token op = advance();
            enter();
            try {
                return new Node.Unary("not", notTest(), op.position());
            } finally {
                depth--;
            }
        }
        return comparison();
    }

    private Node comparison() {
        Node first = arith();
        List<Node> operands = new ArrayList<>(List.of(first));
        List<String> ops = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        while (true) {
            Token t = peek();
            String op;
            if (t.kind() == Token.Kind.OP && COMPARISON_OPS.contains(t.text())) {
                advance();
                op = t.text();
            } else if (t.isKeyword("in")) {
                advance();
                op = "in";
            } else if (t.isKeyword("not") && peek(1).isKeyword("in")) {
                advance();
                advance();
                op = "not in";
            } else if (t.isKeyword("is")) {
                advance();
                op = accept("not") ? "is not" : "is";
            } else {
                break;
            }
            ops.add(op);
            positions.add(t.position());
            operands.add(arith());
        }
        return ops.isEmpty() ? first : new Node.Compare(operands, ops, positions, first.position());
    }

    private Node arith() {
        Node left = term();
        while (peek().isOp("+") || peek().isOp("-")) {
            Token op = advance();
            left = new Node.Binary(op.text(), left, term(), op.position());
        }
        rejectUnsupportedOperator();
        return left;
    }

    private Node term() {
        Node left = factor();
        while (peek().isOp("*") || peek().isOp("/") || peek().isOp("//") || peek().isOp("%")) {
            Token op = advance();
            left = new Node.Binary(op.text(), left, factor(), op.position());
        }
        return left;
    }

    private Node factor() {
        Token t = peek();
        if (t.isOp("-") || t.isOp("+")) {
            advance();
            enter();
            try {
                return new Node.Unary(t.text(), factor(), t.position());
            } finally {
                depth--;
            }
        }
        rejectUnsupportedOperator();
        return power();
    }

    private Node power() {
        Node base = primary();
        if (peek().isOp("**")) {
            Token op = advance();
            enter();
            try {
                return new Node.Binary("**", base, factor(), op.position());
            } finally {
                depth--;
            }
        }
        return base;
    }

    private Node primary() {
        Node node = atom();
        while (true) {
            Token t = peek();
            if (t.isOp(".")) {
                advance();
                Token name = advance();
                if (name.kind() != Token.Kind.NAME) {
                    throw new EvaluationFailure("expected an attribute name after '.'", name.position());
                }
                if (peek().isOp("(")) {
                    Token open = advance();
                    Arguments args = arguments(open);
                    node = new Node.MethodCall(node, name.text(), args.positional, args.keywords, name.position());
                } else {
                    node = new Node.Attribute(node, name.text(), name.position());
                }
            } else if (t.isOp("[")) {
                advance();
                node = subscript(node, t.position());
            } else if (t.isOp("(")) {
                advance();
                if (!(node instanceof Node.Name name)) {
                    throw new EvaluationFailure("only functions and methods can be called", t.position());
                }
                Arguments args = arguments(t);
                node = new Node.Call(name.name(), args.positional, args.keywords, name.position());
            } else {
                return node;
            }
        }
    }

    private Node subscript(Node target, int position) {
        Node lower = peek().isOp(":") ? null : expression();
        if (!accept(":")) {
            expectOp("]");
            return new Node.Subscript(target, lower, position);
        }
        Node upper = peek().isOp(":") || peek().isOp("]") ? null : expression();
        Node step = null;
        if (accept(":")) {
            step = peek().isOp("]") ? null : expression();
        }
        expectOp("]");
        return new Node.Slice(target, lower, upper, step, position);
    }

    private record Arguments(List<Node> positional, List<Keyword> keywords) { }

    private Arguments arguments(Token open) {
        List<Node> positional = new ArrayList<>();
        List<Keyword> keywords = new ArrayList<>();
        while (!peek().isOp(")")) {
            Token t = peek();
            if (t.isOp("*") || t.isOp("**")) {
                throw new EvaluationFailure("argument unpacking with '" + t.text() + "' is not supported", t.position());
            }
            if (t.kind() == Token.Kind.NAME && peek(1).isOp("=")) {
                advance();
                advance();
                keywords.add(new Keyword(t.text(), expression()));
            } else {
                if (!keywords.isEmpty()) {
                    throw new EvaluationFailure("positional argument follows keyword argument", t.position());
                }
                Node arg = expression();
                if (peek().isKeyword("for")) {
                    // a generator expression as sole argument, e.g. sum(x for x in xs)
                    arg = new Node.ListComprehension(arg, clauses(), arg.position());
                }
                positional.add(arg);
            }
            if (!accept(",")) {
                break;
            }
        }
        expectOp(")");
        return new Arguments(positional, keywords);
    }

    private Node atom() {
        Token t = advance();
        switch (t.kind()) {
            case INT -> {
                return new Node.Literal(Values.integer((BigInteger) t.value()), t.position());
            }
            case FLOAT -> {
                return new Node.Literal(JsonNodeFactory.instance.numberNode((Double) t.value()), t.position());
            }
            case STRING -> {
                StringBuilder text = new StringBuilder((String) t.value());
                while (peek().kind() == Token.Kind.STRING) { // adjacent literals concatenate
                    text.append((String) advance().value());
                }
                return new Node.Literal(JsonNodeFactory.instance.textNode(text.toString()), t.position());
            }
            case JSONPATH -> {
                return new Node.JsonPathRef((String) t.value(), t.position());
            }
            case NAME -> {
                return switch (t.text()) {
                    case "None" -> new Node.Literal(JsonNodeFactory.instance.nullNode(), t.position());
                    case "True" -> new Node.Literal(JsonNodeFactory.instance.booleanNode(true), t.position());
                    case "False" -> new Node.Literal(JsonNodeFactory.instance.booleanNode(false), t.position());
                    case "and", "or", "not", "in", "is", "if", "else", "for" -> throw unexpected(t);
                    default -> {
                        if (UNSUPPORTED_KEYWORDS.contains(t.text())) {
                            throw new EvaluationFailure("'" + t.text() + "' is not supported in expressions", t.position());
                        }
                        yield new Node.Name(t.text(), t.position());
                    }
                };
            }
            case OP -> {
                return switch (t.text()) {
                    case "(" -> parenthesized(t);
                    case "[" -> listDisplay(t);
                    case "{" -> dictDisplay(t);
                    default -> throw unexpected(t);
                };
            }
            default -> throw unexpected(t);
        }
    }

    private Node parenthesized(Token open) {
        enter();
        try {
            if (accept(")")) {
                return new Node.ListDisplay(List.of(), open.position());
            }
            Node first = expression();
            if (peek().isKeyword("for")) {
                Node comprehension = new Node.ListComprehension(first, clauses(), open.position());
                expectOp(")");
                return comprehension;
            }
            if (accept(")")) {
                return first;
            }
            List<Node> items = new ArrayList<>(List.of(first));
            while (accept(",")) {
                if (peek().isOp(")")) {
                    break;
                }
                items.add(expression());
            }
            expectOp(")");
            return new Node.ListDisplay(items, open.position());
        } finally {
            depth--;
        }
    }

    private Node listDisplay(Token open) {
        enter();
        try {
            List<Node> items = new ArrayList<>();
            if (accept("]")) {
                return new Node.ListDisplay(items, open.position());
            }
            Node first = expression();
            if (peek().isKeyword("for")) {
                Node comprehension = new Node.ListComprehension(first, clauses(), open.position());
                expectOp("]");
                return comprehension;
            }
            items.add(first);
            while (accept(",")) {
                if (peek().isOp("]")) {
                    break;
                }
                items.add(expression());
            }
            expectOp("]");
            return new Node.ListDisplay(items, open.position());
        } finally {
            depth--;
        }
    }

    private Node dictDisplay(Token open) {
        enter();
        try {
            List<Node> keys = new ArrayList<>();
            List<Node> values = new ArrayList<>();
            if (accept("}")) {
                return new Node.DictDisplay(keys, values, open.position());
            }
            if (peek().isOp("**")) {
                throw new EvaluationFailure("dict unpacking with '**' is not supported", peek().position());
            }
            Node firstKey = expression();
            if (!peek().isOp(":")) {
                throw new EvaluationFailure("set literals are not supported; use a list", open.position());
            }
            advance();
            Node firstValue = expression();
            if (peek().isKeyword("for")) {
                Node comprehension = new Node.DictComprehension(firstKey, firstValue, clauses(), open.position());
                expectOp("}");
                return comprehension;
            }
            keys.add(firstKey);
            values.add(firstValue);
            while (accept(",")) {
                if (peek().isOp("}")) {
                    break;
                }
                keys.add(expression());
                expectOp(":");
                values.add(expression());
            }
            expectOp("}");
            return new Node.DictDisplay(keys, values, open.position());
        } finally {
            depth--;
        }
    }

    private List<Clause> clauses() {
        List<Clause> clauses = new ArrayList<>();
        while (peek().isKeyword("for")) {
            advance();
            List<String> targets = new ArrayList<>();
            boolean parenthesized = accept("(");
            boolean unpack = parenthesized;
            do {
                Token name = advance();
                if (name.kind() != Token.Kind.NAME || name.text().equals("in")) {
                    throw new EvaluationFailure("expected a variable name after 'for'", name.position());
                }
                targets.add(name.text());
                if (peek().isOp(",")) {
                    unpack = true;
                }
            } while (accept(",") && !peek().isKeyword("in") && !peek().isOp(")"));
            if (parenthesized) {
                expectOp(")");
            }
            expectKeyword("in");
            Node iterable = orTest();
            List<Node> conditions = new ArrayList<>();
            while (peek().isKeyword("if")) {
                advance();
                conditions.add(orTest());
            }
            clauses.add(new Clause(List.copyOf(targets), unpack, iterable, List.copyOf(conditions)));
        }
        return clauses;
    }

    private void rejectUnsupportedOperator() {
        Token t = peek();
        if (t.kind() == Token.Kind.OP && UNSUPPORTED_OPS.contains(t.text())) {
            throw new EvaluationFailure("operator '" + t.text() + "' is not supported", t.position());
        }
    }

    private void enter() {
        if (++depth > maxNesting) {
            throw new EvaluationFailure("expression is nested more than " + maxNesting + " levels deep", peek().position());
        }
    }

    private Token peek() {
        return tokens.get(index);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    private Token advance() {
        Token t = tokens.get(index);
        if (t.kind() != Token.Kind.END) {
            index++;
        }
        return t;
    }

    private boolean accept(String opOrKeyword) {
        Token t = peek();
        if (t.isOp(opOrKeyword) || t.isKeyword(opOrKeyword)) {
            index++;
            return true;
        }
        return false;
    }

    private void expectOp(String op) {
        Token t = peek();
        if (!t.isOp(op)) {
            throw new EvaluationFailure("expected '" + op + "' but found " + describe(t), t.position());
        }
        advance();
    }

    private void expectKeyword(String keyword) {
        Token t = peek();
        if (!t.isKeyword(keyword)) {
            throw new EvaluationFailure("expected '" + keyword + "' but found " + describe(t), t.position());
        }
        advance();
    }

    private EvaluationFailure unexpected(Token t) {
        return new EvaluationFailure("unexpected " + describe(t), t.position());
    }

    private static String describe(Token t) {
        return t.kind() == Token.Kind.END ? "end of expression" : "'" + t.text() + "'";
    }
}
