package dev.continuum.engine.domain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Maps the ActionUrls written in flows to the providers that serve them here, so a flow written
 * for Globus runs unchanged: "https://actions.globus.org/transfer/transfer=>builtin:echo".
 */
public final class ActionUrlMap {

    private record Rule(String prefix, String target) {}

    private final List<Rule> rules;
    private final Supplier<String> builtinBase;

    private ActionUrlMap(List<Rule> rules, Supplier<String> builtinBase) {
        this.rules = rules;
        this.builtinBase = builtinBase;
    }

    /**
     * @param pairs "prefix=>target" entries
     * @param builtinBase URL under which "builtin:NAME" lives; asked late because a random port is known only once listening
     */
    public static ActionUrlMap parse(List<String> pairs, Supplier<String> builtinBase) {
        List<Rule> rules = new ArrayList<>();
        for (String pair : pairs) {
            int arrow = pair.indexOf("=>");
            if (arrow <= 0 || arrow == pair.length() - 2) {
                throw new IllegalArgumentException(
                        "continuum.providers.url-map entry '" + pair + "' must look like 'https://from/prefix=>target'");
            }
            rules.add(new Rule(pair.substring(0, arrow).trim(), pair.substring(arrow + 2).trim()));
        }
        rules.sort(Comparator.comparingInt((Rule r) -> r.prefix().length()).reversed());
        return new ActionUrlMap(List.copyOf(rules), builtinBase);
    }

    public String resolve(String actionUrl) {
        String url = resolveBuiltin(actionUrl);
        for (Rule rule : rules) {
            if (actionUrl.startsWith(rule.prefix())) {
                String target = resolveBuiltin(rule.target());
                // A mapped prefix keeps the rest of the path only when the target is itself a prefix.
                return rule.target().startsWith("builtin:") ? target : target + actionUrl.substring(rule.prefix().length());
            }
        }
        return url;
    }

    private String resolveBuiltin(String url) {
        return url.startsWith("builtin:") ? stripSlash(builtinBase.get()) + "/" + url.substring("builtin:".length()) : url;
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
