package dev.continuum.placement.core.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds policies from names such as {@code fifo}, {@code srtf}, {@code las+migrate},
 * {@code fifo+fgd}, {@code qssf+lend}: an order ({@code fifo sjf srtf las qssf priority}), then any of a
 * placement ({@code bestfit worstfit dotprod fgd firstfit}) and switches ({@code preempt
 * nopreempt migrate lend synergy spread elastic green move}). A bare placement or {@code synergy} means
 * FIFO with it; {@code tiresias} is {@code las}. SRTF and LAS preempt unless told not to.
 */
public final class Policies {
    public static final List<String> ORDERS = List.of("fifo", "sjf", "srtf", "las", "qssf", "priority");
    public static final List<String> PLACEMENTS = List.of("bestfit", "bestfit-weighted", "worstfit", "dotprod", "fgd", "fgd-mem", "firstfit");
    public static final List<String> SWITCHES = List.of("preempt", "nopreempt", "migrate", "lend", "synergy", "spread", "elastic", "green", "move");

    private Policies() {
    }

    public static Policy parse(String spec) {
        return parse(spec, PolicyOptions.defaults(false));
    }

    /**
     * As {@link #parse(String, PolicyOptions)}; with {@code +green} the policy defers jobs that can wait into the
     * low windows of {@code signal} at {@code site} ({@link GreenPolicy}).
     */
    public static Policy parse(String spec, PolicyOptions base, CarbonSignal signal, String site) {
        Policy p = parse(spec, base);
        return isGreen(spec) ? new GreenPolicy(p, signal, site) : p;
    }

    /** {@code +move}: jobs move between pools (partitions, sites) when it pays ({@link MovePolicy}). */
    public static boolean moves(String spec) {
        return List.of(spec.trim().toLowerCase(Locale.ROOT).split("\\+")).contains("move");
    }

    public static boolean isGreen(String spec) {
        return List.of(spec.trim().toLowerCase(Locale.ROOT).split("\\+")).contains("green");
    }

    /**
     * {@code base} supplies lookahead and seed; the name decides the rest. {@code green} is accepted and needs a
     * carbon signal to act: {@link #parse(String, PolicyOptions, CarbonSignal, String)}.
     */
    public static Policy parse(String spec, PolicyOptions base) {
        String name = spec.trim().toLowerCase(Locale.ROOT);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty policy name");
        }
        List<String> parts = new ArrayList<>(List.of(name.split("\\+")));
        if (parts.getFirst().equals("tiresias")) {
            parts.set(0, "las");
        }
        if (!ORDERS.contains(parts.getFirst())) {
            parts.addFirst("fifo");
        }
        JobOrder order = order(parts.getFirst());
        PlacementStrategy placement = new BestFit();
        PolicyOptions o = base.withPreempt(order.preemptive()).withMigrate(false).withLend(false)
                .withSynergy(false).withConsolidate(true).withElastic(false);
        for (String p : parts.subList(1, parts.size())) {
            switch (p) {
                case "bestfit" -> placement = new BestFit();
                case "bestfit-weighted" -> placement = new WeightedBestFit();
                case "worstfit" -> placement = new WorstFit();
                case "dotprod" -> placement = new DotProduct();
                case "fgd" -> placement = new FragmentationGradient();
                case "fgd-mem" -> placement = FragmentationGradient.memoryAware();
                case "firstfit" -> placement = new FirstFit();
                case "preempt" -> o = o.withPreempt(true);
                case "nopreempt" -> o = o.withPreempt(false);
                case "migrate" -> o = o.withMigrate(true);
                case "lend" -> o = o.withLend(true);
                case "synergy" -> o = o.withSynergy(true);
                case "spread" -> o = o.withConsolidate(false);
                case "elastic" -> o = o.withElastic(true);
                case "green" -> { } // a wrapper, not a StandardPolicy option: see the four-argument parse
                case "move" -> { } // between pools, above any one pool's policy: see MovePolicy and #moves
                default -> throw new IllegalArgumentException("unknown policy part '" + p + "' in '" + spec
                        + "'; orders: " + ORDERS + ", placements: " + PLACEMENTS + ", switches: " + SWITCHES);
            }
        }
        return new StandardPolicy(name, order, placement, o);
    }

    private static JobOrder order(String name) {
        return switch (name) {
            case "fifo" -> new FifoOrder();
            case "sjf" -> new ShortestJobFirst();
            case "srtf" -> new ShortestRemainingTimeFirst();
            case "las" -> new LeastAttainedService();
            case "qssf" -> new QuasiShortestServiceFirst();
            case "priority" -> new PriorityOrder();
            default -> throw new IllegalArgumentException("unknown order " + name);
        };
    }
}
