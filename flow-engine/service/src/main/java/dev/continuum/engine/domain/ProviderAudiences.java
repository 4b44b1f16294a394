package dev.continuum.engine.domain;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which identity-provider client (audience) and scope a provider's tokens must carry, found from the
 * provider's resolved URL. Configured rules ("https://transfer.example.org/=>continuum-provider-transfer
 * actions:transfer", longest prefix wins) come first; then the defaults: a path under
 * {@code /providers/transfer}, {@code /providers/inference} or {@code /providers/training} (where those providers serve themselves)
 * goes to their clients, and anything under the engine's own providers base to the built-ins.
 */
public final class ProviderAudiences {

    /** A provider's client id (the token's audience) and the scope that lets a token act there. */
    public record Audience(String clientId, String scope) {}

    public static final Audience BUILTIN = new Audience("continuum-provider-builtin", "actions:builtin");
    public static final Audience TRANSFER = new Audience("continuum-provider-transfer", "actions:transfer");
    public static final Audience INFERENCE = new Audience("continuum-provider-inference", "actions:inference");
    public static final Audience TRAINING = new Audience("continuum-provider-training", "actions:training");

    private record Rule(String prefix, Audience audience) {}

    private final List<Rule> rules;
    private final Supplier<String> builtinBase;
    private final Supplier<String> flowsBase;
    private final Audience engine;

    private ProviderAudiences(List<Rule> rules, Supplier<String> builtinBase, Supplier<String> flowsBase, Audience engine) {
        this.rules = rules;
        this.builtinBase = builtinBase;
        this.flowsBase = flowsBase;
        this.engine = engine;
    }

    /**
     * As {@link #parse(List, Supplier)}, and a flow of this engine called as an action ({@code flowsBase}/{id}/actions)
     * takes a token for the engine itself ({@code engine}): the child run starts as the caller with it, and delegates
     * its own providers' tokens from it as any run start does.
     */
    public static ProviderAudiences parse(List<String> pairs, Supplier<String> builtinBase, Supplier<String> flowsBase,
                                          Audience engine) {
        ProviderAudiences configured = parse(pairs, builtinBase);
        return new ProviderAudiences(configured.rules, builtinBase, flowsBase, engine);
    }

    /**
     * @param pairs "urlPrefix=>clientId scope" entries
     * @param builtinBase the engine's own providers base URL, asked late (random ports are known only once listening)
     */
    public static ProviderAudiences parse(List<String> pairs, Supplier<String> builtinBase) {
        List<Rule> rules = new ArrayList<>();
        for (String pair : pairs) {
            int arrow = pair.indexOf("=>");
            String[] target = arrow <= 0 ? new String[0] : pair.substring(arrow + 2).trim().split("\\s+");
            if (target.length != 2 || target[0].isEmpty()) {
                throw new IllegalArgumentException("continuum.auth.provider-audiences entry '" + pair
                        + "' must look like 'https://provider.example.org/=>client-id scope'");
            }
            rules.add(new Rule(pair.substring(0, arrow).trim(), new Audience(target[0], target[1])));
        }
        rules.sort(Comparator.comparingInt((Rule r) -> r.prefix().length()).reversed());
        return new ProviderAudiences(List.copyOf(rules), builtinBase, null, null);
    }

    /** The audience for a resolved provider URL; empty when nothing says who the provider is. */
    public Optional<Audience> of(String providerUrl) {
        for (Rule rule : rules) {
            if (providerUrl.startsWith(rule.prefix())) {
                return Optional.of(rule.audience());
            }
        }
        String path = pathOf(providerUrl);
        if (path.startsWith("/providers/transfer/") || path.equals("/providers/transfer")) {
            return Optional.of(TRANSFER);
        }
        if (path.startsWith("/providers/inference/") || path.equals("/providers/inference")) {
            return Optional.of(INFERENCE);
        }
        if (path.startsWith("/providers/training/") || path.equals("/providers/training")) {
            return Optional.of(TRAINING);
        }
        if (engine != null && under(providerUrl, flowsBase.get()).isPresent()) {
            return Optional.of(engine);
        }
        return under(providerUrl, builtinBase.get()).map(rest -> BUILTIN);
    }

    /**
     * What follows {@code base} in {@code providerUrl} (e.g. "echo" under the engine's own providers
     * base), localhost and 127.0.0.1 counting as one host; empty when the URL is not under {@code base}.
     */
    public static Optional<String> under(String providerUrl, String base) {
        String prefix = loopback(base.endsWith("/") ? base : base + "/");
        String url = loopback(providerUrl);
        return url.startsWith(prefix) ? Optional.of(url.substring(prefix.length())) : Optional.empty();
    }

    /** localhost and 127.0.0.1 name the same engine: a flow may use either for the built-ins. */
    private static String loopback(String url) {
        // by hand, not String.replaceFirst: this runs on every provider call, and a regex is compiled per call
        int host = url.startsWith("http://") ? 7 : url.startsWith("https://") ? 8 : -1;
        if (host < 0 || !url.startsWith("localhost", host)) {
            return url;
        }
        int end = host + "localhost".length();
        if (end < url.length() && url.charAt(end) != ':' && url.charAt(end) != '/') {
            return url;
        }
        return url.substring(0, host) + "127.0.0.1" + url.substring(end);
    }

    private static String pathOf(String url) {
        try {
            String path = URI.create(url).getPath();
            return path == null ? "" : path;
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
